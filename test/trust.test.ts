import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { PullFacts } from '../src/github.js'
import { untrustedOf, type ProducerApi } from '../src/producer.js'
import { actionRuns, configPath, localUses, newPlugins, pluginsOf, producerChanges } from '../src/trust.js'

test('localUses: every uses: ./… of a workflow, parsed as YAML: block and flow style, quoted keys and values, anchors and merge keys; "" for the repository itself', () => {
  const workflow = `jobs:
  gate:
    steps:
      - uses: actions/checkout@v5
      - uses: ./.github/actions/setup
      - {name: flow, uses: ./tools/flow}
      - "uses": './tools/quoted/'
      - &build
        uses: ./tools/anchored
      - *build
      - <<: {uses: ./tools/merged}
        name: merged
      - name: gate
        uses: "./tools/wiregate/"
        with: { mode: gate }
      - uses: ./  # the repository is the action
  reuse:
    uses: ./.github/workflows/shared.yml
`
  assert.deepEqual(localUses(workflow), ['', '.github/actions/setup', '.github/workflows/shared.yml', 'tools/anchored', 'tools/flow', 'tools/merged', 'tools/quoted', 'tools/wiregate'])
  assert.deepEqual(localUses('steps:\n  - uses: wiregate/wiregate@v1\n'), [])
  // The line scan this replaces saw only "uses:" at a line's start.
  assert.deepEqual(localUses('jobs: {gate: {steps: [{uses: ./tools/x}]}}\n'), ['tools/x'])
  assert.equal(localUses('jobs: [unclosed\n'), undefined, 'a workflow that does not parse: nobody can say what it runs')
  assert.deepEqual(localUses('steps:\n  - uses: ../elsewhere\n  - uses: ./../../up\n'), [''], 'a path that leaves the repository could be anything in it')
})

test('actionRuns: the scripts and Dockerfile an action names, wherever they are', () => {
  assert.deepEqual(actionRuns("runs:\n  using: node24\n  main: ../../dist/index.js\n  post: 'post.js'\n", 'tools/gate'), ['dist/index.js', 'tools/gate/post.js'])
  assert.deepEqual(actionRuns('runs: {using: docker, image: Dockerfile}\n', 'tools/img'), ['tools/img/Dockerfile'])
  assert.deepEqual(actionRuns('runs: {using: docker, image: docker://alpine:3}\n', 'tools/img'), [])
  assert.deepEqual(actionRuns('runs: {using: composite, steps: [{run: ./x.sh, shell: bash}]}\n', 'tools/c'), [])
})

test('pluginsOf: a check plugin, a template plugin by local path, by path or as a name, from the config\'s directory and the root; newPlugins compares declarations as written', () => {
  const bufYaml = 'version: v2\nplugins:\n  - plugin: ./tools/lint-plugin\n    options: {strict: true}\n  - plugin: buf-plugin-x.wasm\n'
  assert.deepEqual(pluginsOf(bufYaml, 'proto/buf.yaml')?.paths, ['buf-plugin-x.wasm', 'proto/buf-plugin-x.wasm', 'proto/tools/lint-plugin', 'tools/lint-plugin'])
  const gen = 'version: v2\nplugins:\n  - {local: [bin/protoc-gen-x, --flag], out: gen}\n  - remote: buf.build/protocolbuffers/go\n    out: gen\n'
  assert.deepEqual(pluginsOf(gen, 'buf.gen.yaml')?.paths, ['--flag', 'bin/protoc-gen-x'], 'every argument of a command list')
  assert.deepEqual(pluginsOf('version: v1\nplugins:\n  - name: x\n    path: ../bin/protoc-gen-x\n    out: gen\n', 'proto/buf.gen.yaml')?.paths, ['bin/protoc-gen-x'])
  assert.equal(pluginsOf('plugins: [\n', 'buf.yaml'), undefined)

  assert.equal(newPlugins(bufYaml, bufYaml, 'buf.yaml'), false, 'the same declarations')
  assert.equal(newPlugins(`${bufYaml}lint:\n  use: [STANDARD]\n`, bufYaml, 'buf.yaml'), false, 'a lint change beside the same plugins')
  assert.equal(newPlugins(bufYaml.replace('strict: true', 'strict: false'), bufYaml, 'buf.yaml'), true, 'a plugin declared otherwise')
  assert.equal(newPlugins('version: v2\nplugins: [{plugin: ./tools/x}]\n', 'version: v2\n', 'buf.yaml'), true, 'a plugin added')
  assert.equal(newPlugins('version: v2\n', bufYaml, 'buf.yaml'), false, 'plugins removed run nothing')
  assert.equal(newPlugins('plugins: [\n', bufYaml, 'buf.yaml'), true, 'a head that does not parse')
})

test('producerChanges: the workflow, .github/, node_modules/ anywhere, a producer path and wiregate.yaml count; schemas do not', () => {
  const p = { workflowPath: '.github/workflows/ci.yml', paths: ['tools/wiregate', 'dist/index.js'], config: 'wiregate.yaml' }
  const changed = ['schemas/order.proto', '.github/workflows/ci.yml', '.github/CODEOWNERS', 'tools/wiregate/action.yml', 'tools/wiregate-other/x', 'wiregate.yaml', 'sub/wiregate.yaml',
    'node_modules/.bin/buf', 'web/node_modules/x/index.js', 'dist/index.js', 'dist/index.js.map']
  assert.deepEqual(producerChanges(changed, p), ['.github/CODEOWNERS', '.github/workflows/ci.yml', 'dist/index.js', 'node_modules/.bin/buf', 'tools/wiregate/action.yml', 'web/node_modules/x/index.js', 'wiregate.yaml'])
  assert.deepEqual(producerChanges(['schemas/order.proto', 'node_modules_docs.md'], p), [])
  assert.deepEqual(producerChanges(['schemas/order.proto'], { ...p, paths: [''] }), ['schemas/order.proto'], 'uses: ./ makes the whole repository the action')
  assert.deepEqual(producerChanges(['schemas/order.proto'], { ...p, workflowPath: undefined }), ['schemas/order.proto'], 'an unnamed workflow: nothing can be vouched for')
  assert.deepEqual(producerChanges(['schemas/order.proto'], { ...p, paths: undefined }), ['schemas/order.proto'], 'a workflow that could not be read: nothing can be vouched for')
})

test('configPath is wiregate.yaml under working-directory', () => {
  assert.equal(configPath(''), 'wiregate.yaml')
  assert.equal(configPath('.'), 'wiregate.yaml')
  assert.equal(configPath('./services/api/'), 'services/api/wiregate.yaml')
})

const BASE = 'b'.repeat(40)
const HEAD = 'f'.repeat(40)
const WORKFLOW = '.github/workflows/ci.yml'

/** A fork's pull request changing files, on a base holding base (path → text) and a head holding head. */
function fork(files: string[], base: Record<string, string>, head: Record<string, string> = {}, over: Partial<PullFacts> = {}): [PullFacts, ProducerApi] {
  const pr: PullFacts = { number: 5, headSha: HEAD, baseSha: BASE, baseRef: 'main', author: 'someone', labels: [], fork: true, changedFiles: files.length, ...over }
  const api: ProducerApi = {
    changedFiles: () => Promise.resolve({ files, listed: Math.min(files.length, 3000) }),
    fileAt: (path, ref) => Promise.resolve((ref === BASE ? base : ref === HEAD ? { ...base, ...head } : {})[path]),
    tree: () => Promise.resolve({ paths: Object.keys(base), truncated: false })
  }
  return [pr, api]
}

test('untrustedOf follows a workflow\'s local actions through a nested composite action: a change to the action it uses counts, as does the script a JavaScript action names', async () => {
  const base = {
    [WORKFLOW]: 'jobs:\n  gate:\n    steps: [{uses: ./.github/actions/setup}, {uses: wiregate/wiregate@v0}]\n',
    '.github/actions/setup/action.yml': 'runs:\n  using: composite\n  steps:\n    - {uses: "./tools/outer"}\n',
    'tools/outer/action.yaml': 'runs:\n  using: composite\n  steps:\n    - uses: ./tools/inner\n',
    'tools/inner/action.yml': 'runs:\n  using: node24\n  main: ../../scripts/inner.js\n'
  }
  for (const changed of ['tools/outer/action.yaml', 'tools/inner/index.js', 'scripts/inner.js']) {
    const [pr, api] = fork(['schemas/a.proto', changed], base)
    assert.deepEqual(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), { files: [changed] }, changed)
  }
  const [pr, api] = fork(['schemas/a.proto', 'tools/other/x.sh'], base)
  assert.equal(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), undefined, 'a directory no action of the workflow is')
  const [bad, badApi] = fork(['schemas/a.proto'], { ...base, 'tools/inner/action.yml': 'runs: [\n' })
  assert.deepEqual(await untrustedOf(bad, WORKFLOW, 'wiregate.yaml', badApi), { files: ['schemas/a.proto'] }, 'an action that does not parse: every change counts')
})

test('untrustedOf: a plugin path a base buf.yaml declares, a buf.yaml that gains a plugin, and node_modules/ count', async () => {
  const base = { [WORKFLOW]: 'jobs: {}\n', 'proto/buf.yaml': 'version: v2\nplugins:\n  - plugin: ../tools/lint-plugin\n' }
  let [pr, api] = fork(['proto/a.proto', 'tools/lint-plugin'], base)
  assert.deepEqual(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), { files: ['tools/lint-plugin'] }, 'the plugin the base declares, changed')
  ;[pr, api] = fork(['buf.yaml', 'tools/x'], { [WORKFLOW]: 'jobs: {}\n', 'buf.yaml': 'version: v2\n' }, { 'buf.yaml': 'version: v2\nplugins: [{plugin: ./tools/x}]\n' })
  assert.deepEqual(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), { files: ['buf.yaml', 'tools/x'] }, 'a plugin the pull request declares, and its file')
  ;[pr, api] = fork(['proto/buf.yaml'], base, { 'proto/buf.yaml': `${base['proto/buf.yaml']}lint:\n  use: [STANDARD]\n` })
  assert.equal(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), undefined, 'a lint change beside the same plugin')
  ;[pr, api] = fork(['node_modules/.bin/buf', 'proto/a.proto'], base)
  assert.deepEqual(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), { files: ['node_modules/.bin/buf'] })
})

test('untrustedOf fails closed on a file list GitHub cut (3,000 of 3,001) and on a base tree it cut', async () => {
  const files = Array.from({ length: 3001 }, (_, i) => `schemas/m${i}.proto`)
  let [pr, api] = fork(files, { [WORKFLOW]: 'jobs: {}\n' })
  assert.deepEqual(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), { unread: 'GitHub lists 3000 of the 3001 files it changes (the pull request files API lists at most 3,000)' })
  ;[pr, api] = fork(files.slice(0, 3000), { [WORKFLOW]: 'jobs: {}\n' })
  assert.equal(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api), undefined, '3,000 of 3,000')
  api.tree = () => Promise.resolve({ paths: [], truncated: true })
  assert.match(JSON.stringify(await untrustedOf(pr, WORKFLOW, 'wiregate.yaml', api)), /cut its listing of the base commit's files/)
})
