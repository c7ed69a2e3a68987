() => {
  // WCAG 2.x contrast of what the page shows, from its computed styles.
  const css = (node, pseudo) => getComputedStyle(node, pseudo);
  const parse = (text) => {
    const m = /^rgba?\(([^)]*)\)$/.exec(text.trim());
    if (!m) throw new Error(`a colour this check can't read: ${text}`);
    const [r, g, b, a = 1] = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => {
    const a = top.a + bottom.a * (1 - top.a);
    const mix = (t, b) => (t * top.a + b * bottom.a * (1 - top.a)) / a;
    return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a };
  };
  const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const ratio = (x, y) => {
    const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05);
  };
  const canvas = matchMedia("(prefers-color-scheme: dark)").matches
    ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
  // The colour behind a node: its background and its ancestors', composited down to an opaque one.
  const behind = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(css(n).backgroundColor);
      // An image behind text would need looking at; a ticked box's tick is no backdrop.
      if (css(n).backgroundImage !== "none" && !n.matches("input[type=checkbox]")) {
        throw new Error(`a background image on ${describe(n)}`);
      }
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    return layers.reverse().reduce((below, top) => over(top, below), canvas);
  };
  const describe = (n) => n.id ? `#${n.id}` : n.tagName.toLowerCase()
    + (n.className && typeof n.className === "string" ? `.${n.className.trim().split(/\s+/).join(".")}` : "")
    + (n.type ? `[${n.type}]` : "");
  const visible = (n) => n.getClientRects().length > 0 && css(n).visibility === "visible";
  const results = [];
  const record = (kind, node, fg, bg, need, sample) => results.push({
    kind, what: describe(node), sample: (sample || "").slice(0, 40), ratio: Math.round(ratio(fg, bg) * 100) / 100, need });
  const textNeed = (n) => {
    const size = parseFloat(css(n).fontSize), weight = Number(css(n).fontWeight);
    return size >= 24 || (size >= 18.66 && weight >= 700) ? 3 : 4.5;
  };
  // Text: every visible text node, its colour over what is behind it.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const n = t.parentElement;
    if (!t.data.trim() || !n || n.closest("script, style") || !visible(n)) continue;
    const bg = behind(n);
    record("text", n, over(parse(css(n).color), bg), bg, textNeed(n), t.data.trim());
  }
  const controls = [...document.querySelectorAll("input, textarea, select, button")].filter(visible);
  for (const n of controls) {
    const own = behind(n), outside = behind(n.parentElement);
    // What is typed in a field, and its placeholder.
    if (n.matches("input:not([type=radio]):not([type=checkbox]), textarea")) {
      if (n.value) record("text", n, over(parse(css(n).color), own), own, textNeed(n), n.value);
      if (n.placeholder) record("text", n, over(parse(css(n, "::placeholder").color), own), own, textNeed(n), n.placeholder);
    }
    // The boundary that identifies the control: its border, or its own fill, against what surrounds it.
    const s = css(n);
    if (n.matches("input[type=radio], input[type=checkbox]") && s.appearance !== "none") {
      results.push({ kind: "boundary", what: describe(n), sample: "native control: its outline has no computed style",
        ratio: 0, need: 3 });
    } else {
      const sides = ["Top", "Right", "Bottom", "Left"].filter((side) =>
        s[`border${side}Style`] !== "none" && parseFloat(s[`border${side}Width`]) > 0);
      const border = sides.length === 4 ? over(parse(s.borderTopColor), outside) : outside;
      const fill = own;
      const best = ratio(border, outside) >= ratio(fill, outside) ? border : fill;
      record("boundary", n, best, outside, 3, n.textContent.trim() || n.getAttribute("aria-label") || n.name);
      if (n.checked) record("checked", n, fill, outside, 3, n.name);
    }
  }
  // Focus rings: each control focused, its ring (or its row's) against what surrounds the ring.
  const was = document.activeElement;
  for (const n of controls) {
    n.focus();
    let ring = null;
    for (let r = n; r && r !== document.body; r = r.parentElement) {
      const s = css(r);
      if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) { ring = r; break; }
    }
    if (!ring) {
      results.push({ kind: "focus", what: describe(n), sample: "no focus ring", ratio: 0, need: 3 });
      continue;
    }
    const outside = behind(ring.parentElement);
    record("focus", n, over(parse(css(ring).outlineColor), outside), outside, 3, describe(ring));
  }
  if (was && was.focus) was.focus();
  return results;
}
