// @ts-check
// ESLint for the browser code (src/cathedral/web/static/js): the recommended rules, browser
// globals, ES modules. scripts/test.sh runs it; `npx eslint` from the repository root too.

import js from "@eslint/js";
import globals from "globals";

export default [
  // the virtual environment holds other projects' JavaScript (playwright's driver)
  { ignores: [".venv/", "build/", "dist/", "docs/"] },
  {
    files: ["src/cathedral/web/static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    // this file and the other Node-side config
    files: ["eslint.config.js"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
