//! QR codes for paper: the `qrcode` crate's module matrix drawn as a small SVG by hand (no image
//! crate, nothing to rasterise), so a sheet prints them sharp at any size and a test can read the
//! drawing back module by module.

use qrcode::{Color, EcLevel, QrCode};

/// Modules of light margin around the code, as the QR standard asks.
pub const QUIET_ZONE: usize = 4;

/// A QR code's modules: `width` × `width`, row by row, `true` for dark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modules {
    pub width: usize,
    pub dark: Vec<bool>,
}

impl Modules {
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        self.dark[y * self.width + x]
    }
}

/// Why a text cannot become a QR code.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw a QR code of {length} bytes: {reason}")]
pub struct QrError {
    length: usize,
    reason: String,
}

/// The modules encoding `text` (byte mode, error correction M: a smudged corner still reads).
///
/// # Errors
/// The text is too long for a QR code.
pub fn modules(text: &str) -> Result<Modules, QrError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| QrError { length: text.len(), reason: e.to_string() })?;
    let dark = code.to_colors().into_iter().map(|c| c == Color::Dark).collect();
    Ok(Modules { width: code.width(), dark })
}

/// `text` as an inline SVG: one unit per module, the quiet zone included, scaled by the page's
/// CSS. Each run of dark modules in a row is one `M x y h n v 1 h -n z` of a single path.
///
/// # Errors
/// As [`modules`].
pub fn svg(text: &str, label: &str) -> Result<String, QrError> {
    Ok(draw(&modules(text)?, label))
}

fn draw(code: &Modules, label: &str) -> String {
    let size = code.width + 2 * QUIET_ZONE;
    let mut path = String::new();
    for y in 0..code.width {
        let mut x = 0;
        while x < code.width {
            if !code.is_dark(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < code.width && code.is_dark(x, y) {
                x += 1;
            }
            path.push_str(&format!("M{} {}h{}v1h-{}z", start + QUIET_ZONE, y + QUIET_ZONE, x - start, x - start));
        }
    }
    format!(
        "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" \
         shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"{label}\">\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#fff\"/><path fill=\"#000\" d=\"{path}\"/></svg>",
        label = crate::html::esc(label),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The modules an SVG of [`svg`] draws, read back from its path.
    pub(crate) fn read_svg(svg: &str) -> Modules {
        let size: usize = svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let width = size - 2 * QUIET_ZONE;
        let mut dark = vec![false; width * width];
        let path = svg.split(" d=\"").nth(1).unwrap().split('"').next().unwrap();
        for run in path.split('z').filter(|r| !r.is_empty()) {
            let (at, rest) = run.strip_prefix('M').unwrap().split_once('h').unwrap();
            let (x, y) = at.split_once(' ').unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            let n: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            for i in 0..n {
                dark[(y - QUIET_ZONE) * width + x - QUIET_ZONE + i] = true;
            }
        }
        Modules { width, dark }
    }

    /// What a phone's camera would read from `code`, drawn `scale` pixels a module with its
    /// quiet zone: decoded by a second, independent implementation (`rqrr`).
    pub(crate) fn decode(code: &Modules, scale: usize) -> String {
        let size = (code.width + 2 * QUIET_ZONE) * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(size, size, |x, y| {
            let (mx, my) = (x / scale, y / scale);
            let inside = (QUIET_ZONE..QUIET_ZONE + code.width).contains(&mx)
                && (QUIET_ZONE..QUIET_ZONE + code.width).contains(&my);
            if inside && code.is_dark(mx - QUIET_ZONE, my - QUIET_ZONE) {
                0
            } else {
                255
            }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code in the picture");
        grids[0].decode().expect("the QR code decodes").1
    }

    #[test]
    fn the_drawn_code_reads_back_as_the_link() {
        let link = "https://ledger.example:8443/signin?next=/tables/open26/3#token=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978";
        let drawn = svg(link, "table 3").unwrap();
        let read = read_svg(&drawn);
        assert_eq!(read, modules(link).unwrap(), "the SVG draws exactly the encoder's modules");
        assert_eq!(decode(&read, 4), link);
        assert!(drawn.contains("aria-label=\"table 3\""));
        // Another link, another code.
        let other = link.replace("/3#", "/4#");
        assert_ne!(modules(&other).unwrap(), read);
        assert_eq!(decode(&read_svg(&svg(&other, "").unwrap()), 3), other);
    }

    #[test]
    fn a_text_too_long_is_an_error_not_a_panic() {
        let error = svg(&"x".repeat(5000), "").unwrap_err();
        assert!(error.to_string().contains("5000 bytes"), "{error}");
    }
}
