import assert from 'node:assert/strict'
import { test } from 'node:test'
import { configPath, localActions, producerChanges } from '../src/trust.js'

test('localActions are the directories of the uses: ./… lines of a workflow, "" for the repository itself', () => {
  const workflow = `jobs:
  gate:
    steps:
      - uses: actions/checkout@v5
      - uses: ./.github/actions/setup
      - name: gate
        uses: "./tools/wiregate/"
        with: { mode: gate }
      - uses: ./  # the repository is the action
`
  assert.deepEqual(localActions(workflow), ['', '.github/actions/setup', 'tools/wiregate'])
  assert.deepEqual(localActions('steps:\n  - uses: wiregate/wiregate@v1\n'), [])
})

test('producerChanges: the workflow, anything under .github/, a local action it runs and wiregate.yaml count; schemas do not', () => {
  const p = { workflowPath: '.github/workflows/ci.yml', actions: ['tools/wiregate'], config: 'wiregate.yaml' }
  const changed = ['schemas/order.proto', '.github/workflows/ci.yml', '.github/CODEOWNERS', 'tools/wiregate/action.yml', 'tools/wiregate-other/x', 'wiregate.yaml', 'sub/wiregate.yaml']
  assert.deepEqual(producerChanges(changed, p), ['.github/CODEOWNERS', '.github/workflows/ci.yml', 'tools/wiregate/action.yml', 'wiregate.yaml'])
  assert.deepEqual(producerChanges(['schemas/order.proto'], p), [])
  assert.deepEqual(producerChanges(['schemas/order.proto'], { ...p, actions: [''] }), ['schemas/order.proto'], 'uses: ./ makes the whole repository the action')
  assert.deepEqual(producerChanges(['schemas/order.proto'], { ...p, workflowPath: undefined }), ['schemas/order.proto'], 'an unnamed workflow: nothing can be vouched for')
})

test('configPath is wiregate.yaml under working-directory', () => {
  assert.equal(configPath(''), 'wiregate.yaml')
  assert.equal(configPath('.'), 'wiregate.yaml')
  assert.equal(configPath('./services/api/'), 'services/api/wiregate.yaml')
})
