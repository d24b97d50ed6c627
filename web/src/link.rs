//! Share links, embed mode and autosave: which scenario text the page opens with, and the links it hands out.
//!
//! Pure string work over the core's `share` codec, so every damaged-link case is tested natively. The
//! order on load is: a share link in the fragment, then the autosaved text, then the built-in example.

use fleetplan::{examples, share};

/// localStorage key of the autosaved scenario text. Versioned so a later format can ignore old entries.
pub const AUTOSAVE_KEY: &str = "fleetplan.scenario.v1";

/// Share payloads longer than this are not mirrored into the address bar while typing (pasting a large
/// manifest list must not make every keystroke rewrite a megabyte URL); "Copy link" still offers them.
pub const MIRROR_LIMIT: usize = 32 * 1024;

/// Committed edits are mirrored into the address bar and localStorage once edits pause this long (ms):
/// a burst of edits writes only its last state, and no write lands between two edits of a burst.
pub const MIRROR_PAUSE_MS: f64 = 500.0;

/// ...but no later than this (ms) after the first edit not yet written, so steady editing still saves.
pub const MIRROR_AT_MOST_MS: f64 = 3000.0;

/// How long (ms) to wait before mirroring, `now` and `first_unwritten` (the first commit since the last
/// write) on one clock: the pause after the latest commit, cut short by the [`MIRROR_AT_MOST_MS`] cap.
pub fn mirror_delay(now: f64, first_unwritten: f64) -> f64 {
    MIRROR_PAUSE_MS
        .min(first_unwritten + MIRROR_AT_MOST_MS - now)
        .max(0.0)
}

/// What the page opens with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub text: String,
    /// Shown above the page when the link could not be opened; says why and that the example is shown.
    pub banner: Option<String>,
}

/// The text of the default example (the KubeFleet staging → canary → production rollout).
pub fn example_text() -> &'static str {
    examples::DEFAULT_TEXT
}

/// True when the query asks for embed mode (`?embed=1`, `?embed`, `?embed=true`).
pub fn embed_mode(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .any(|kv| match kv.split_once('=') {
            Some((k, v)) => k == "embed" && v != "0" && v != "false",
            None => kv == "embed",
        })
}

/// The share payload in a fragment (`#s=…`, also among other `&`-separated keys), or `None` when the
/// fragment holds no `s=` key at all.
pub fn fragment_payload(hash: &str) -> Option<&str> {
    hash.trim_start_matches('#')
        .split('&')
        .find_map(|kv| kv.strip_prefix("s="))
}

/// Chooses the opening text: the fragment's scenario wins over the autosave, which wins over the example.
/// A fragment that is there but cannot be decoded gives the example and a banner saying why.
pub fn opening(hash: &str, autosaved: Option<String>) -> Opening {
    opening_of(fragment_payload(hash).map(share::decode), autosaved)
}

/// [`opening`] with the fragment's scenario already decoded (`None`: the fragment holds none); the
/// page's first chart decodes it with the browser's inflater ([`crate::inflate`]).
pub fn opening_of(
    link: Option<Result<String, share::ShareError>>,
    autosaved: Option<String>,
) -> Opening {
    if let Some(decoded) = link {
        return match decoded {
            Ok(text) => Opening { text, banner: None },
            Err(e) => Opening {
                text: example_text().to_string(),
                banner: Some(format!(
                    "This link could not be opened: {e}. Showing the built-in example instead."
                )),
            },
        };
    }
    match autosaved {
        Some(text) if !text.trim().is_empty() => Opening { text, banner: None },
        _ => Opening {
            text: example_text().to_string(),
            banner: None,
        },
    }
}

/// The share codec's compressor, an on-demand part: the app's first screen never encodes a text (the
/// opening one is not written back, and an embed's caption reuses its link's payload when it has one),
/// so deflate comes with the first edit to mirror, "Copy link", or an embed's caption without a link.
#[derive(Clone, Copy)]
pub struct ShareKit {
    /// The share payload of a scenario text ([`share::encode`]).
    pub encode: fn(&str) -> String,
}

crate::on_demand! {
    pub fn share_kit() -> ShareKit {
        ShareKit { encode: share::encode }
    }
}

/// The fragment (without `#`) that carries the share payload `payload`.
pub fn fragment_of(payload: &str) -> String {
    format!("s={payload}")
}

/// The link that reopens the scenario of the share payload `payload` in the full app.
pub fn link_to(base: &str, payload: &str) -> String {
    format!("{base}#{}", fragment_of(payload))
}

/// The link for an iframe showing the scenario of `payload`: the chart alone, read-only.
pub fn embed_link_to(base: &str, payload: &str) -> String {
    format!("{base}?embed=1#{}", fragment_of(payload))
}

/// An iframe snippet for a docs portal. The URL is attribute-escaped so no scenario text can break out.
pub fn iframe_snippet(embed_url: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"fleetplan rollout plan\" width=\"100%\" height=\"480\" style=\"border:0\" loading=\"lazy\"></iframe>",
        fleetplan::export::xml_escape(embed_url)
    )
}

/// The snippet for a docs page that cannot use an iframe: the one-file script next to the app (from
/// `app` the app's address) and the `<fleetplan-chart>` element showing the scenario of `share_url`.
pub fn component_snippet(app: &str, share_url: &str) -> String {
    let dir = match app.rfind('/') {
        Some(i) => &app[..=i],
        None => "./",
    };
    format!(
        "<script type=\"module\" src=\"{}fleetplan-chart.js\"></script>\n<fleetplan-chart link=\"{}\" style=\"height: 420px\"></fleetplan-chart>",
        fleetplan::export::xml_escape(dir),
        fleetplan::export::xml_escape(share_url)
    )
}

/// The scenario text inside a share link (or a bare `#s=…` fragment), for `<fleetplan-chart link>`.
pub fn text_of_link(link: &str) -> Result<String, String> {
    share::decode(payload_of_link(link)?).map_err(|e| link_error(&e))
}

/// The share payload inside a link (or a bare `#s=…` fragment), or why there is none.
pub fn payload_of_link(link: &str) -> Result<&str, String> {
    let hash = link.find('#').map_or(link, |i| &link[i..]);
    fragment_payload(hash).ok_or_else(|| "the link holds no scenario (no `#s=…` part)".to_string())
}

/// Why a link's scenario could not be read, for [`text_of_link`] and its JavaScript twin.
pub fn link_error(e: &share::ShareError) -> String {
    format!("the link could not be opened: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_burst_is_mirrored_after_its_pause_and_steady_editing_within_the_cap() {
        // Rule (mirror_delay): wait the 500 ms pause after the latest commit, but write no later than
        // 3,000 ms after the first commit not yet written.
        assert_eq!(mirror_delay(10_000.0, 10_000.0), 500.0);
        assert_eq!(mirror_delay(12_000.0, 10_000.0), 500.0);
        assert_eq!(mirror_delay(12_800.0, 10_000.0), 200.0);
        assert_eq!(mirror_delay(13_000.0, 10_000.0), 0.0);
        assert_eq!(mirror_delay(15_000.0, 10_000.0), 0.0);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn embed_mode_reads_the_query() {
        assert!(embed_mode("?embed=1"));
        assert!(embed_mode("?x=2&embed"));
        assert!(!embed_mode("?embed=0"));
        assert!(!embed_mode(""));
        assert!(!embed_mode("?embedded=1"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_share_link_round_trips_and_wins_over_the_autosave() {
        let text = "name: mine\n";
        let url = link_to("http://127.0.0.1:8080/", &share::encode(text));
        let hash = &url[url.find('#').unwrap()..];
        let o = opening(hash, Some("saved".into()));
        assert_eq!(o.text, text);
        assert_eq!(o.banner, None);
        let e = embed_link_to("http://h/", &share::encode(text));
        assert!(e.starts_with("http://h/?embed=1#s=1."));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn without_a_link_the_autosave_then_the_example_opens() {
        assert_eq!(opening("", Some("saved".into())).text, "saved");
        assert_eq!(opening("#other", Some("  ".into())).text, example_text());
        assert_eq!(opening("", None).text, example_text());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn damaged_links_open_the_example_with_a_reason() {
        let good = fragment_of(&share::encode("name: a\nclusters: []\n"));
        let truncated = &good[..good.len() - 5];
        for hash in [
            "#s=garbage!!",
            "#s=",
            "#s=9.abc",
            &format!("#{truncated}"),
            "#s=1.%%%",
        ] {
            let o = opening(hash, Some("saved".into()));
            assert_eq!(o.text, example_text(), "{hash}");
            let banner = o.banner.expect(hash);
            assert!(
                banner.starts_with("This link could not be opened: "),
                "{banner}"
            );
        }
        let huge = format!("#s=1.{}", "A".repeat(share::MAX_PAYLOAD_LEN + 10));
        assert!(opening(&huge, None).banner.is_some());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_component_snippet_loads_the_script_beside_the_app() {
        let url = link_to(
            "https://docs.example/tools/fleetplan/",
            &share::encode("name: x\n"),
        );
        let s = component_snippet("https://docs.example/tools/fleetplan/", &url);
        assert!(s.starts_with(
            "<script type=\"module\" src=\"https://docs.example/tools/fleetplan/fleetplan-chart.js\">"
        ));
        assert!(s.contains("<fleetplan-chart link=\"https://docs.example/tools/fleetplan/#s=1."));
        let s = component_snippet("http://h/app/index.html", &url);
        assert!(s.contains("src=\"http://h/app/fleetplan-chart.js\""), "{s}");
        assert_eq!(text_of_link(&url).unwrap(), "name: x\n");
        assert!(text_of_link("https://h/#other").is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_iframe_snippet_escapes_its_url() {
        let s = iframe_snippet("http://h/?embed=1#s=1.\"><script>");
        assert!(!s.contains("<script>"));
        assert!(s.contains("&quot;&gt;&lt;script&gt;"));
    }
}
