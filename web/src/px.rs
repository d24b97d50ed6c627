//! Horizontal chart coordinates as both charts write them: whole tenths of a pixel.
//!
//! An edit moves every bar (the fitted view's scale changes with the run's end), so the rows in view set
//! their `x` and `width` again on every edit. As shortest floats each cost a float formatting and a copy
//! of its text out of wasm memory (Chromium's profiler over five typed rolling edits at 1,000 clusters:
//! 6.5 ms formatting, 6.1 ms decoding texts in `setAttribute`). Rounded to tenths, they are written
//! from their integer digits through `Display` into the markup both charts share (chart_markup.rs),
//! so a chart that replaces the viewer's shows the same numbers. A tenth of a pixel is below what a
//! screen shows. The SVG export keeps its own one-decimal formatting (`gantt::svg`).

use fleetplan::decimal::{decimal, LONGEST};

/// A coordinate in tenths of a pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tenths(pub i32);

impl Tenths {
    /// `px` rounded to the nearest tenth (halves away from zero); beyond ±214 million px it saturates,
    /// and a value that is not a number is 0.
    pub fn of(px: f64) -> Tenths {
        // `as` saturates and maps NaN to 0.
        Tenths((px * 10.0).round() as i32)
    }

    /// The left edge and width of a span `x`..`x + width` px: both ends rounded, so spans that touch
    /// still touch, and never narrower than `min` px (the layout's bars are at least 1 px wide).
    pub fn span(x: f64, width: f64, min: f64) -> (Tenths, Tenths) {
        let left = Tenths::of(x);
        let right = Tenths::of(x + width);
        let w = right.0.saturating_sub(left.0).max(Tenths::of(min).0);
        (left, Tenths(w))
    }

    /// The coordinate in pixels (the double nearest the decimal `Display` writes).
    pub fn px(self) -> f64 {
        f64::from(self.0) / 10.0
    }

    /// This coordinate moved by `px` whole pixels.
    pub fn plus(self, px: i32) -> Tenths {
        Tenths(self.0.saturating_add(px.saturating_mul(10)))
    }
}

/// The number as an SVG attribute holds it (`12`, `12.5`, `-0.3`), written from its digits.
impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.unsigned_abs();
        if self.0 < 0 {
            f.write_str("-")?;
        }
        let mut buf = [0; LONGEST];
        f.write_str(decimal(u64::from(n / 10), &mut buf))?;
        if n % 10 != 0 {
            f.write_str(".")?;
            f.write_str(decimal(u64::from(n % 10), &mut buf))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: Tenths) -> String {
        t.to_string()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn tenths_are_written_as_decimal_numbers_without_a_trailing_zero() {
        // A tenth is the last digit after a point; whole pixels have no point (as "12" not "12.0").
        assert_eq!(text(Tenths(0)), "0");
        assert_eq!(text(Tenths(7)), "0.7");
        assert_eq!(text(Tenths(120)), "12");
        assert_eq!(text(Tenths(125)), "12.5");
        assert_eq!(text(Tenths(-3)), "-0.3");
        assert_eq!(text(Tenths(-10)), "-1");
        assert_eq!(text(Tenths(i32::MAX)), "214748364.7");
        assert_eq!(text(Tenths(i32::MIN)), "-214748364.8");
        // The browser writes a number by its shortest decimal: the same text.
        for t in [0, 7, 120, 125, -3, -10, 12_345, i32::MAX, i32::MIN] {
            assert_eq!(Tenths(t).px().to_string(), text(Tenths(t)));
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pixels_round_to_the_nearest_tenth() {
        assert_eq!(Tenths::of(12.34), Tenths(123));
        assert_eq!(Tenths::of(12.36), Tenths(124));
        assert_eq!(Tenths::of(-1.0), Tenths(-10));
        assert_eq!(Tenths::of(f64::NAN), Tenths(0));
        assert_eq!(Tenths::of(1e12), Tenths(i32::MAX));
        assert_eq!(Tenths(5).plus(3), Tenths(35));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn spans_that_touch_still_touch_after_rounding() {
        // Bars of 1.04 px side by side: rounding each width alone would draw 1.0 px each and open a gap
        // of 0.1 px after three; rounding both ends keeps each bar's right end on the next one's left.
        let mut x = 0.0;
        let mut end = Tenths(0);
        for _ in 0..10 {
            let (l, w) = Tenths::span(x, 1.04, 1.0);
            assert_eq!(l, end);
            end = Tenths(l.0 + w.0);
            x += 1.04;
        }
        assert_eq!(end, Tenths::of(10.4));
        // Never narrower than the minimum, however the ends round.
        assert_eq!(Tenths::span(0.05, 1.0, 1.0).1, Tenths(10));
    }
}
