// ESLint for the web app (make check runs it with --max-warnings 0, so a warning fails too):
// typescript-eslint's recommended rules, and React's hooks rules including the React Compiler's
// (rules of hooks, exhaustive dependencies, no setState during render or in an effect's body …).
// The typed operations in src/gql/ are generated, and dist/ is the build's output.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig([
  globalIgnores(['dist/', 'src/gql/']),
  {
    files: ['**/*.{js,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
])
