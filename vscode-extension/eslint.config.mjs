// @ts-check
// The extension's lint rules: typescript-eslint's recommended set, and the rules that VS Code's
// extension template (`yo code`, TypeScript) adds to it, at the template's severity. `npm run
// lint` allows no warning, so `npm test` fails on any finding.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Built or bundled, not written here: dist/ (esbuild), bundled/libs/ (npm run bundle).
  { ignores: ['dist/', 'bundled/', 'node_modules/'] },
  {
    files: ['**/*.ts', '**/*.mts', '**/*.mjs'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
    },
    rules: {
      '@typescript-eslint/naming-convention': [
        'warn',
        {
          selector: 'import',
          format: ['camelCase', 'PascalCase'],
        },
      ],
      curly: 'warn',
      eqeqeq: 'warn',
      'no-throw-literal': 'warn',
      semi: 'warn',
    },
  },
);
