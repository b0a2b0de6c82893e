// The editor's colours and squiggles: a layer behind the (transparent) text area that shows
// the same text, coloured by the VS Code extension's TextMate grammar (copied from
// vscode-extension/syntaxes/ by the build) and with a wavy line under the text of each finding.
//
// The grammar is read simply: its top-level patterns in order, at each place of a line the
// first that matches there wins (a string, begin to end, is one match); captures and nested
// patterns are not coloured apart.

/** One sticky regular expression per top-level pattern of the grammar, with its scope. */
export function compileGrammar(grammar) {
  const rules = [];
  const add = (pattern) => {
    if (pattern.include) return add(grammar.repository[pattern.include.slice(1)]);
    if (pattern.patterns && !pattern.begin) return pattern.patterns.forEach(add);
    const source = pattern.begin
      ? `${pattern.begin}(?:\\\\.|(?!${pattern.end}).)*(?:${pattern.end})`
      : pattern.match;
    const scope = pattern.name ?? Object.values(pattern.captures ?? {}).map((c) => c.name)[1];
    rules.push({ regex: sticky(source), scope });
  };
  grammar.patterns.forEach(add);
  return rules;
}

/** A sticky RegExp of a TextMate (Oniguruma) pattern; `(?i:...)` where the browser lacks
 * inline modifiers makes the whole pattern case-insensitive. */
function sticky(source) {
  try {
    return new RegExp(source, "y");
  } catch {
    return new RegExp(source.replaceAll("(?i:", "(?:"), "iy");
  }
}

/** [start, end, class] of each coloured token of `text`, by offset. */
export function tokens(rules, text) {
  const found = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    let at = 0;
    while (at < line.length) {
      let matched = 0;
      for (const { regex, scope } of rules) {
        regex.lastIndex = at;
        const match = regex.exec(line);
        if (match && match[0].length) {
          matched = match[0].length;
          if (scope) found.push([offset + at, offset + at + matched, scopeClass(scope)]);
          break;
        }
      }
      at += matched || 1;
    }
    offset += line.length + 1;
  }
  return found;
}

/** "variable.other.property.pbtxt" -> "tm-variable-other-property". */
const scopeClass = (scope) => `tm-${scope.split(".").slice(0, 3).join("-")}`;

/** The offset in `text` of a 1-based line and column. */
export function offsetOf(text, line, column) {
  let offset = 0;
  for (let number = 1; number < line; number++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** Fills `layer` with `text`, coloured, a squiggle under each range of `marks` ({start, end,
 * severity}, offsets; an empty range is marked on one character). Each squiggled piece says
 * which marks it belongs to in data-marks. */
export function paint(layer, text, coloured, marks) {
  const ranges = marks.map(({ start, end, severity }) => ({
    start,
    end: Math.max(end, start + 1),
    severity,
  }));
  const cuts = new Set([0, text.length]);
  for (const [start, end] of coloured) cuts.add(start).add(end);
  for (const { start, end } of ranges) cuts.add(Math.min(start, text.length)).add(Math.min(end, text.length));
  const points = [...cuts].sort((a, b) => a - b);
  const pieces = [];
  let token = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    while (token < coloured.length && coloured[token][1] <= start) token++;
    const classes = [];
    if (token < coloured.length && coloured[token][0] <= start) classes.push(coloured[token][2]);
    const under = ranges.flatMap((r, index) => (r.start <= start && end <= r.end ? [index] : []));
    if (under.length) classes.push("squiggle", ranges[under[0]].severity);
    const piece = document.createElement("span");
    piece.textContent = text.slice(start, end);
    if (classes.length) piece.className = classes.join(" ");
    if (under.length) piece.dataset.marks = under.join(" ");
    pieces.push(piece);
  }
  // A last line that is empty still takes its height, as the text area's does.
  pieces.push(document.createTextNode("\n"));
  layer.replaceChildren(...pieces);
}
