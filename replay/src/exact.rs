//! Exact numbers for scores and coefficients.
//!
//! Why not `f64`: spec §3–5, docs/RULES.md fix every score to the tenth (CAFE) or as an exact
//! rational shown with two decimals (wm2015), and a jury must get the same digits by hand.
//! Every number here is a reduced fraction of two `i128`s; CAFE scores are fractions whose
//! denominator divides 10, so "integer tenths" and this type agree exactly. Rounding happens
//! only for display, once, halves up.
//!
//! Square roots (the wm2015 standard deviation, the Wilson interval of `stats`) are never
//! stored: [`floor_of_sum_with_root`] finds the digits of `p ± √q` with integer square roots
//! and exact comparisons, so a displayed bound is the correctly rounded one.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A reduced fraction `num / den` with `den > 0`. Kept by the season's read models as the pair
/// `(num, den)`; a pair with `den` 0 is refused when read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "(i128, i128)", try_from = "(i128, i128)")]
pub struct Rational {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rational {
    pub const ZERO: Rational = Rational { num: 0, den: 1 };

    /// `num / den`, reduced.
    ///
    /// # Panics
    /// When `den` is 0: callers check divisors that come from events first.
    pub fn new(num: i128, den: i128) -> Rational {
        assert!(den != 0, "a fraction with denominator 0");
        let sign = if den < 0 { -1 } else { 1 };
        let divisor = gcd(num, den).max(1);
        Rational { num: sign * num / divisor, den: sign * den / divisor }
    }

    pub fn int(value: i64) -> Rational {
        Rational::new(i128::from(value), 1)
    }

    /// `tenths / 10`: the CAFE rulesets count in tenths.
    pub fn tenths(tenths: i64) -> Rational {
        Rational::new(i128::from(tenths), 10)
    }

    pub fn numer(self) -> i128 {
        self.num
    }

    pub fn denom(self) -> i128 {
        self.den
    }

    pub fn min(self, other: Rational) -> Rational {
        if other < self {
            other
        } else {
            self
        }
    }

    pub fn max(self, other: Rational) -> Rational {
        if other > self {
            other
        } else {
            self
        }
    }

    /// The largest integer not above the value.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }

    /// The value rounded to `places` decimals, halves up (towards +∞), as an integer count
    /// of `10^-places`: 45/8 at 2 places is 563.
    pub fn round_units(self, places: u32) -> i128 {
        let scaled = self * Rational::new(10i128.pow(places), 1) + Rational::new(1, 2);
        scaled.floor()
    }

    /// The value rounded to `places` decimals, halves up, with exactly `places` decimals:
    /// 45/8 → "5.63", 121/10 at one place → "12.1".
    pub fn to_fixed(self, places: u32) -> String {
        fixed_text(self.round_units(places), places)
    }

    /// True when the decimal expansion ends within `places` decimals.
    pub fn fits(self, places: u32) -> bool {
        (10i128.pow(places) % self.den) == 0
    }

    /// The exact value for a jury: a decimal when it ends within six places, else `n/d`.
    pub fn exact_text(self) -> String {
        match (0..=6).find(|&places| self.fits(places)) {
            Some(places) => self.to_fixed(places),
            None => format!("{}/{}", self.num, self.den),
        }
    }

    /// The exact value, and the displayed one after it when rounding changes it:
    /// "5.625 → 5.63", "8/3 → 2.67", "7.5", "10".
    pub fn shown(self, places: u32) -> String {
        let exact = self.exact_text();
        if self.fits(places) {
            exact
        } else {
            format!("{exact} → {}", self.to_fixed(places))
        }
    }
}

/// `units × 10^-places` as text with exactly `places` decimals.
pub fn fixed_text(units: i128, places: u32) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let magnitude = units.unsigned_abs();
    if places == 0 {
        return format!("{sign}{magnitude}");
    }
    let scale = 10u128.pow(places);
    let width = usize::try_from(places).unwrap_or(0);
    format!("{sign}{}.{:0width$}", magnitude / scale, magnitude % scale, width = width)
}

/// A JSON number with the digits of `units × 10^-places`, written from the decimal text,
/// never computed in floating point. Trailing zeros are trimmed to one decimal ("12.00" →
/// 12.0) so that the printed JSON is the same with or without serde_json's
/// `arbitrary_precision` feature: without it the text goes through the nearest `f64`, whose
/// shortest form gives back exactly these digits (at most 17 significant digits).
pub fn json_number(units: i128, places: u32) -> serde_json::Number {
    let mut text = if places == 0 { format!("{}.0", fixed_text(units, 0)) } else { fixed_text(units, places) };
    while text.ends_with('0') && !text.ends_with(".0") {
        text.pop();
    }
    text.parse().expect("a plain decimal is always a valid JSON number")
}

/// [`json_number`] of a value rounded to `places` decimals, halves up.
pub fn json_rounded(value: Rational, places: u32) -> serde_json::Number {
    json_number(value.round_units(places), places)
}

impl From<Rational> for (i128, i128) {
    fn from(value: Rational) -> Self {
        (value.num, value.den)
    }
}

impl TryFrom<(i128, i128)> for Rational {
    type Error = &'static str;

    fn try_from((num, den): (i128, i128)) -> Result<Self, Self::Error> {
        if den == 0 {
            return Err("a fraction with denominator 0");
        }
        Ok(Rational::new(num, den))
    }
}

impl Default for Rational {
    fn default() -> Self {
        Rational::ZERO
    }
}

impl From<i64> for Rational {
    fn from(value: i64) -> Self {
        Rational::int(value)
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Rational {
    type Output = Rational;
    fn add(self, rhs: Rational) -> Rational {
        Rational::new(self.num * rhs.den + rhs.num * self.den, self.den * rhs.den)
    }
}

impl Sub for Rational {
    type Output = Rational;
    fn sub(self, rhs: Rational) -> Rational {
        self + (-rhs)
    }
}

impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational { num: -self.num, den: self.den }
    }
}

impl Mul for Rational {
    type Output = Rational;
    fn mul(self, rhs: Rational) -> Rational {
        Rational::new(self.num * rhs.num, self.den * rhs.den)
    }
}

impl Div for Rational {
    type Output = Rational;
    /// # Panics
    /// On division by zero; callers check divisors that come from events.
    fn div(self, rhs: Rational) -> Rational {
        Rational::new(self.num * rhs.den, self.den * rhs.num)
    }
}

impl std::iter::Sum for Rational {
    fn sum<I: Iterator<Item = Rational>>(iter: I) -> Rational {
        iter.fold(Rational::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.exact_text())
    }
}

/// The largest integer whose square is at most `n` (`n ≥ 0`).
pub fn isqrt(n: i128) -> i128 {
    assert!(n >= 0, "square root of a negative number");
    if n < 2 {
        return n;
    }
    // Newton's method from above, on integers only.
    let mut x = n;
    let mut y = (x + 1) / 2;
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

/// Exactly `⌊p + sign·√q⌋` for rationals `p` and `q ≥ 0`, `sign` ±1.
///
/// Starts from `p + sign·isqrt(⌊q⌋)`, which is off by at most 2, and corrects it with exact
/// comparisons (`p + √q ≥ n` ⇔ `√q ≥ n − p` ⇔ `n − p ≤ 0` or `q ≥ (n − p)²`).
pub fn floor_of_sum_with_root(p: Rational, sign: i8, q: Rational) -> i128 {
    assert!(q >= Rational::ZERO, "square root of a negative number");
    let at_least = |n: i128| {
        let d = Rational::new(n, 1) - p;
        if sign > 0 {
            d <= Rational::ZERO || q >= d * d
        } else {
            // −√q ≥ d ⇔ √q ≤ −d
            d <= Rational::ZERO && q <= d * d
        }
    };
    let root = isqrt(q.floor());
    let mut n = (p + Rational::new(i128::from(sign.signum()) * root, 1)).floor();
    while !at_least(n) {
        n -= 1;
    }
    while at_least(n + 1) {
        n += 1;
    }
    n
}

/// `p + sign·√q` rounded to `places` decimals, halves up, as units of `10^-places`.
pub fn round_sum_with_root(p: Rational, sign: i8, q: Rational, places: u32) -> i128 {
    let scale = Rational::new(10i128.pow(places), 1);
    floor_of_sum_with_root(p * scale + Rational::new(1, 2), sign, q * scale * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_halves_up_once() {
        assert_eq!(Rational::new(45, 8).to_fixed(2), "5.63");
        assert_eq!(Rational::new(8, 3).to_fixed(2), "2.67");
        assert_eq!(Rational::new(4, 3).to_fixed(2), "1.33");
        assert_eq!(Rational::tenths(121).to_fixed(1), "12.1");
        assert_eq!(Rational::tenths(-14).to_fixed(1), "-1.4");
        assert_eq!(Rational::new(-1, 200).to_fixed(2), "0.00");
        assert_eq!(Rational::new(45, 8).shown(2), "5.625 → 5.63");
        assert_eq!(Rational::new(8, 3).shown(2), "8/3 → 2.67");
        assert_eq!(Rational::int(10).shown(2), "10");
    }

    #[test]
    fn json_numbers_carry_the_decimal_digits() {
        let text = |units, places| serde_json::to_string(&json_number(units, places)).unwrap();
        assert_eq!(text(121, 1), "12.1");
        assert_eq!(text(130, 1), "13.0");
        assert_eq!(text(563, 2), "5.63");
        assert_eq!(text(1200, 2), "12.0");
        assert_eq!(text(850, 2), "8.5");
        assert_eq!(text(-14, 1), "-1.4");
        assert_eq!(text(5, 0), "5.0");
        assert_eq!(text(7, 3), "0.007");
        for units in -5000..5000 {
            let shown = text(units, 2);
            let mut expected = fixed_text(units, 2);
            while expected.ends_with('0') && !expected.ends_with(".0") {
                expected.pop();
            }
            assert_eq!(shown, expected);
        }
    }

    #[test]
    fn integer_square_roots() {
        for n in 0..2000 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
        assert_eq!(isqrt(10i128.pow(30)), 10i128.pow(15));
    }

    #[test]
    fn roots_are_rounded_exactly() {
        // √(50/9) = 2.357… → 2.36; √(38/9) = 2.054… → 2.05; √2 = 1.41421…
        assert_eq!(round_sum_with_root(Rational::ZERO, 1, Rational::new(50, 9), 2), 236);
        assert_eq!(round_sum_with_root(Rational::ZERO, 1, Rational::new(38, 9), 2), 205);
        assert_eq!(round_sum_with_root(Rational::ZERO, 1, Rational::int(2), 4), 14142);
        assert_eq!(round_sum_with_root(Rational::int(3), -1, Rational::int(2), 4), 15858);
        // exact squares: 1 − √(1/4) = 0.5 exactly
        assert_eq!(round_sum_with_root(Rational::int(1), -1, Rational::new(1, 4), 1), 5);
    }
}
