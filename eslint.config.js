// ESLint for the action's TypeScript (npm run lint): typescript-eslint's
// type-aware recommended rules, which catch the floating promises and
// unsafe `any` flows a glue layer of awaits and JSON is prone to.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'harness/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }]
    }
  },
  // node:test runs every top-level test() itself; their promises are its.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-floating-promises': 'off' } }
)
