//! Shared helpers of the integration tests (in progress).
