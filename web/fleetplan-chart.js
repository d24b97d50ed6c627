// <fleetplan-chart>: fleetplan's read-only rollout chart as a web component, for docs portals that
// cannot use an iframe. One file to include, served next to the app's built files:
//
//   <script type="module" src="https://docs.example/tools/fleetplan/fleetplan-chart.js"></script>
//   <fleetplan-chart src="rollout.yaml" style="height: 420px"></fleetplan-chart>
//
// The scenario comes from `src` (a URL, relative to the page), `scenario` (the YAML/JSON text itself)
// or `link` (a fleetplan share link). The chart is the app's embed mode, drawn in the element's shadow
// root with the app's stylesheet, so it neither takes nor leaks the page's styles.

const here = new URL(".", import.meta.url);
let module;

/** Loads the app's module once, without mounting the app itself on this page. */
function load() {
  if (!module) {
    globalThis.fleetplanApiOnly = true;
    // "open in fleetplan" links from the chart go to the app beside this file.
    globalThis.fleetplanAppUrl ??= here.href;
    module = import(new URL("fleetplan-web.js", here).href).then(async (m) => {
      await m.default({ module_or_path: new URL("fleetplan-web_bg.wasm", here) });
      return m;
    });
  }
  return module;
}

class FleetplanChart extends HTMLElement {
  static get observedAttributes() {
    return ["src", "scenario", "link"];
  }

  connectedCallback() {
    this.render();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.render();
  }

  async scenarioText(m) {
    const src = this.getAttribute("src");
    if (src) {
      const response = await fetch(new URL(src, document.baseURI));
      if (!response.ok) throw new Error(`${src}: HTTP ${response.status}`);
      return response.text();
    }
    const link = this.getAttribute("link");
    if (link) return m.scenarioFromLink(link);
    return this.getAttribute("scenario") ?? "";
  }

  async render() {
    const run = (this.runs = (this.runs ?? 0) + 1);
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    try {
      const m = await load();
      const text = await this.scenarioText(m);
      // A newer attribute value started another render meanwhile: let that one draw.
      if (run !== this.runs) return;
      root.innerHTML = "";
      const style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = new URL("style.css", here).href;
      const host = document.createElement("div");
      host.className = "fleetplan-host";
      host.style.height = "100%";
      root.append(style, host);
      m.drawChart(host, text);
      this.dataset.state = "drawn";
    } catch (e) {
      if (run !== this.runs) return;
      root.textContent = `fleetplan: ${e?.message ?? e}`;
      this.dataset.state = "error";
    }
  }
}

if (!customElements.get("fleetplan-chart")) {
  customElements.define("fleetplan-chart", FleetplanChart);
}
