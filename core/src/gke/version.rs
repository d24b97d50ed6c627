//! GKE versions (`1.31.5-gke.1023000`): parsing, ordering and minor-version arithmetic.

use std::cmp::Ordering;
use std::fmt;

use crate::plan::Name;

/// A minor version, `(major, minor)`.
pub type Minor = (u32, u32);

/// `1.20` (a minor version as release notes write it) → `(1, 20)`.
pub fn parse_minor(text: &str) -> Option<Minor> {
    let (major, minor) = text
        .trim()
        .strip_prefix('v')
        .unwrap_or(text.trim())
        .split_once('.')?;
    let num = |p: &str| {
        (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    Some((num(major)?, num(minor)?))
}

/// A parsed GKE version. Ordered by major, minor, patch, then the `-gke.N` build; the text is kept so
/// plans print exactly what the user wrote.
#[derive(Clone, Debug, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
    /// The `-gke.N` build number; 0 when absent (`1.31.5`).
    pub build: u64,
    /// As written; shared, so every bar and event that names the version copies a pointer.
    pub text: Name,
}

impl Version {
    /// Accepts `1.31`, `1.31.5`, `1.31.5-gke.1023000`, with an optional leading `v`.
    pub fn parse(text: &str) -> Result<Version, String> {
        let t = text.trim();
        let bad = || {
            format!("`{t}` is not a GKE version (expected MAJOR.MINOR.PATCH-gke.N, e.g. 1.31.5-gke.1023000)")
        };
        let body = t.strip_prefix('v').unwrap_or(t);
        let (core, build) = match body.split_once('-') {
            Some((core, suffix)) => {
                let n = suffix.strip_prefix("gke.").ok_or_else(bad)?;
                (core, n.parse::<u64>().map_err(|_| bad())?)
            }
            None => (body, 0),
        };
        let mut parts = core.split('.');
        let num = |p: Option<&str>| -> Result<u32, String> {
            let p = p.ok_or_else(bad)?;
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            p.parse::<u32>().map_err(|_| bad())
        };
        let major = num(parts.next())?;
        let minor = num(parts.next())?;
        let patch = match parts.next() {
            Some(p) => num(Some(p))?,
            None => 0,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Version {
            major,
            minor,
            patch,
            build,
            text: Name::from(t),
        })
    }

    fn key(&self) -> (u32, u32, u32, u64) {
        (self.major, self.minor, self.patch, self.build)
    }

    /// Minor versions from `self` up to `other` (negative when `other` is older), across majors
    /// counted as 100 minors apart so that `2.0` is never "one minor" above `1.31`.
    pub fn minors_to(&self, other: &Version) -> i64 {
        let idx = |v: &Version| i64::from(v.major) * 100 + i64::from(v.minor);
        idx(other) - idx(self)
    }

    /// `1.31` of `1.31.5-gke.1023000`.
    pub fn minor_text(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    /// `(1, 31)` of `1.31.5-gke.1023000`.
    pub fn minor_key(&self) -> Minor {
        (self.major, self.minor)
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn orders_by_numbers_not_text() {
        assert!(v("1.31.5-gke.1023000") > v("1.31.5-gke.200"));
        assert!(v("1.31.10-gke.1") > v("1.31.9-gke.999"));
        assert!(v("1.32.0-gke.1") > v("1.31.99-gke.1"));
        assert_eq!(v("1.31.5"), v("1.31.5-gke.0"));
        assert_eq!(v("1.31.5-gke.100").to_string(), "1.31.5-gke.100");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn minor_arithmetic() {
        assert_eq!(v("1.30.2-gke.1").minors_to(&v("1.32.0-gke.5")), 2);
        assert_eq!(v("1.31.2-gke.1").minors_to(&v("1.31.9-gke.5")), 0);
        assert_eq!(v("1.31.0").minors_to(&v("2.0.0")), 69);
        assert_eq!(v("1.31.5-gke.1").minor_text(), "1.31");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn rejects_what_is_not_a_version() {
        for bad in [
            "",
            "1",
            "latest",
            "1.31.5-eks.1",
            "1.31.x",
            "1.31.5.1",
            "1..5",
        ] {
            assert_eq!(
                Version::parse(bad).map(|v| v.text),
                Err(format!("`{bad}` is not a GKE version (expected MAJOR.MINOR.PATCH-gke.N, e.g. 1.31.5-gke.1023000)")),
            );
        }
    }
}
