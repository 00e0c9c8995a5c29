import { describe, expect, it } from "vitest";
import { calibrationSvg } from "../../src/evaluation/outputs/calibration-svg.js";
import { reliabilityBins } from "../../src/evaluation/scoring/calibration.js";

const labelsOf = (svg: string, role: string) =>
  [
    ...svg.matchAll(
      new RegExp(`aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="${role}"`, "g"),
    ),
  ].map((match) => match[1]);

describe("the calibration plot", () => {
  it("draws every bin of every forecaster as a point and a count bar, beside the diagonal", async () => {
    const svg = await calibrationSvg(
      {
        sharp: reliabilityBins([
          { probability: 0.1, outcome: 0 },
          { probability: 0.15, outcome: 1 },
          { probability: 0.9, outcome: 1 },
        ]),
        "cautious <b>&</b>": reliabilityBins([{ probability: 0.5, outcome: 1 }]),
      },
      "Calibration: set",
    );
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const points = [
      "sharp: forecasts 0.1–0.2, mean 0.125, observed 0.500, n=2",
      "sharp: forecasts 0.9–1.0, mean 0.900, observed 1.000, n=1",
      "cautious &lt;b&gt;&amp;&lt;/b&gt;: forecasts 0.5–0.6, mean 0.500, observed 1.000, n=1",
    ];
    expect(labelsOf(svg, "circle")).toEqual(points);
    expect(labelsOf(svg, "bar")).toEqual(points);
    expect(svg).toContain('aria-label="perfect calibration"');
    expect(svg).toContain(">Calibration: set</text>");
    // Names are text, never markup.
    expect(svg).not.toContain("<b>");
    expect(svg).toContain(">cautious &lt;b&gt;&amp;&lt;/b&gt;</text>");
    // Self-contained: nothing to fetch, nothing to run.
    expect(svg).not.toMatch(/<script|href=|url\(|<image|<foreignObject/i);
  });

  it("labels the count legend with whole numbers, however the bins' counts fall", async () => {
    for (const counts of [[12], [1, 2], [3, 17, 40], [5, 6, 7, 8, 9]]) {
      const bins = counts.flatMap((n, bin) =>
        Array.from({ length: n }, () => ({ probability: bin / 10 + 0.05, outcome: 1 })),
      );
      const svg = await calibrationSvg({ model: reliabilityBins(bins) }, "Calibration: counts");
      const legend = svg.slice(
        svg.indexOf("Symbol legend titled 'Forecasts in bin'"),
        svg.indexOf(">Forecasts in bin</text>"),
      );
      const labels = [...legend.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
        .map((match) => match[1] ?? "")
        .filter((text) => /^[\d.,]+$/.test(text));
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label, `${counts}`).toMatch(/^\d+$/);
    }
  });

  it("says so when there is nothing to plot", async () => {
    const svg = await calibrationSvg({}, "Calibration: empty");
    expect(svg).toContain(">No resolved binary forecasts to plot.</text>");
    expect(svg).toContain('aria-label="perfect calibration"');
    expect(labelsOf(svg, "circle")).toEqual([]);
  });
});
