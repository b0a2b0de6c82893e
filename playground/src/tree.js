// A tree of files as text, and the share link's fragment.
//
// The text form is what `tail -n +1 FILES` and `head FILES` print, the form configs are
// pasted in issue threads: each file after a header line `==> PATH <==`, a blank line
// before each header but the first. A header whose path ends in `/` is an empty folder.

const HEADER = /^==> (.*) <==$/;

/** Whether `text` is a tree: its first line that is not blank is a header. */
export function isTree(text) {
  const first = text.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && HEADER.test(first.replace(/\r$/, ""));
}

/** A path of the tree, checked: relative, without `..`, `.` or empty parts. Returns it with a
 * leading `./` removed (and a trailing `/` for a folder); throws an Error saying what is wrong. */
function checkedPath(raw) {
  let path = raw.trim();
  while (path.startsWith("./")) path = path.slice(2);
  const folder = path.endsWith("/");
  if (folder) path = path.slice(0, -1);
  if (!path) throw new Error(`"==> ${raw} <==": the path is empty`);
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.startsWith("\\")) {
    throw new Error(`"==> ${raw} <==": the path must be relative, not absolute`);
  }
  const parts = path.split("/");
  if (parts.includes("..")) throw new Error(`"==> ${raw} <==": a path cannot go up with ".."`);
  if (parts.some((part) => part === "" || part === ".")) {
    throw new Error(`"==> ${raw} <==": the path has an empty part`);
  }
  return folder ? `${path}/` : path;
}

/** The files (path -> text) and empty folders (paths ending in `/`) of a tree's text.
 * Throws an Error with a message for the user where a path is absolute, goes up, or is
 * given twice, or where a folder header has text under it. */
export function parseTree(text) {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const sections = [];
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) sections.push({ raw: header[1], lines: [] });
    else if (sections.length) sections.at(-1).lines.push(line);
    else if (line.trim()) throw new Error("the text before the first \"==> PATH <==\" line is not blank");
  }
  const files = new Map();
  const folders = [];
  const seen = new Set();
  for (const section of sections) {
    const path = checkedPath(section.raw);
    const bare = path.replace(/\/$/, "");
    if (seen.has(bare)) throw new Error(`"${bare}" is given twice`);
    seen.add(bare);
    // (The newline that ends the last line before the next header is the separator
    // `tail` writes, not the file's.)
    const content = section.lines.join("\n");
    if (path.endsWith("/")) {
      if (content.trim()) throw new Error(`"==> ${section.raw} <==" is a folder, but text follows it`);
      folders.push(path);
    } else {
      files.set(path, content);
    }
  }
  for (const path of seen) {
    const parts = path.split("/");
    for (let end = 1; end < parts.length; end += 1) {
      const above = parts.slice(0, end).join("/");
      if (files.has(above)) throw new Error(`"${above}" is a file and a folder at once`);
    }
  }
  if (!files.size) throw new Error("the tree has no file");
  return { files, folders };
}

/** The text of a tree: files (path -> text) and empty folders, by path. */
export function treeText(files, folders = []) {
  const entries = [...[...files.entries()], ...folders.map((path) => [path, ""])];
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.map(([path, text]) => `==> ${path} <==\n${text}`).join("\n");
}

// --- the share link --------------------------------------------------------------------
/** base64url of bytes (no padding). */
function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(encoded) {
  const binary = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** One config in the link: its UTF-8 text, base64url-encoded. */
export const encodeText = (text) => base64url(new TextEncoder().encode(text));
export const decodeText = (encoded) => new TextDecoder().decode(fromBase64url(encoded));

async function through(stream, bytes) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** A tree in the link: its text, deflated (raw deflate) and base64url-encoded. */
export async function encodeTree(text) {
  return base64url(await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(text)));
}

export async function decodeTree(encoded) {
  return new TextDecoder().decode(await through(new DecompressionStream("deflate-raw"), fromBase64url(encoded)));
}
