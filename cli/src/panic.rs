//! Last line of defence: a bug must surface as one readable line, never as a backtrace in a CI log.

use std::io::{self, Write};

pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("unknown panic");
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let _ = writeln!(
            io::stderr().lock(),
            "fleetplan: internal error: {what}{at} (a bug in fleetplan; please report it with the input that caused it)"
        );
    }));
}
