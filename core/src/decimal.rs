//! Non-negative integers written in decimal without the formatting machinery, for hot paths.
//!
//! Field paths, generated cluster names, event reasons, playback labels and chart coordinates write
//! many small numbers; `format!` and `Display` cost far more than the digits, and each hand-written
//! copy of this loop had been its own function in the bundle.

/// The longest text: `u64::MAX` has 20 digits.
pub const LONGEST: usize = 20;

/// `n` in decimal, as `Display` writes it, in `buf`.
pub fn decimal(n: u64, buf: &mut [u8; LONGEST]) -> &str {
    let mut at = LONGEST;
    let mut n = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or("0")
}

/// Appends `n` in decimal to `out`.
pub fn push_decimal(out: &mut String, n: u64) {
    let mut buf = [0; LONGEST];
    out.push_str(decimal(n, &mut buf));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rule: the same digits `Display` writes, from 0 to the largest `u64`, at every power of ten.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn writes_what_display_writes() {
        let mut buf = [0; LONGEST];
        let mut cases = vec![0, 1, 9, u64::MAX, u64::MAX - 1];
        let mut p: u64 = 1;
        while let Some(next) = p.checked_mul(10) {
            cases.extend([p - 1, p, p + 1]);
            p = next;
        }
        for n in cases {
            assert_eq!(decimal(n, &mut buf), n.to_string());
            let mut s = String::from("x");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
    }
}
