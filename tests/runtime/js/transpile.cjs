'use strict';
// Transpiles TypeScript programs to ES modules with the `typescript` package's transpileModule
// (types are not checked: the arms are run, not compiled). Usage: node transpile.cjs OUT_DIR FILE...
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const [outDir, ...files] = process.argv.slice(2);
for (const file of files) {
  const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  if (diagnostics.length) {
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    throw new Error(`${file}: ${text.join('; ')}`);
  }
  fs.writeFileSync(path.join(outDir, `${path.basename(file, path.extname(file))}.mjs`), outputText);
}
