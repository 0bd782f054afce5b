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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // md is a template tag: its only raw input is the renderer's own
      // literals (src/render/markdown.ts). Called as a function, it would take any string.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='md']", message: 'md is a template tag: write md`…`' },
        { selector: "TSAsExpression > TSTypeReference[typeName.name='Md']", message: 'an Md is made by render/markdown.ts, not cast' }
      ]
    }
  },
  // node:test runs every top-level test() itself; their promises are its.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-floating-promises': 'off' } }
)
