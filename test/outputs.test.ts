import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readActionInputs } from '../src/actionInputs.js'
import { splitArgs } from '../src/localArgs.js'
import { gateOutputs } from '../src/outputs.js'
import { gateArgv } from '../src/run.js'
import { loadFixture } from './fixtures.js'

test('outputs count only violations that are not allowed', () => {
  const fail = gateOutputs(loadFixture('fail'))
  assert.equal(fail.result, 'fail')
  assert.equal(fail.violations, loadFixture('fail').violations.length)
  assert.equal(fail.breaking, true)
  const allowed = gateOutputs(loadFixture('allowed'))
  assert.deepEqual(allowed, { result: 'pass', violations: 0, breaking: true })
  assert.deepEqual(gateOutputs(loadFixture('pass')), { result: 'pass', violations: 0, breaking: false })
})

test('action inputs: only the glue ones, bad values name the input', () => {
  const get = (v: Record<string, string>) => (n: string) => v[n] ?? ''
  assert.deepEqual(readActionInputs(get({ 'github-token': 't', comment: 'False', 'base-ref': ' v1 ', cache: 'true', mode: 'publish' })), {
    githubToken: 't',
    comment: false,
    baseRef: 'v1',
    cache: true,
    mode: 'publish'
  })
  assert.throws(() => readActionInputs(get({ comment: '1', mode: 'gate' })), /input 'comment' is "1": want true or false/)
  assert.throws(() => readActionInputs(get({ comment: 'true', cache: 'true', mode: 'Publish' })), /^WiregateError: input 'mode' is "Publish": want gate .*, publish .* or approve /)
  assert.throws(() => readActionInputs(get({ comment: 'true', cache: 'true', mode: '' })), /input 'mode' is "": want gate/)
})

test('npm run gate keeps --base and --out and passes the rest to wiregate gate', () => {
  assert.deepEqual(splitArgs(['--base', 'main', '--count', '3', '--out=o', '--pipeline=false']), {
    ours: { base: 'main', out: 'o' },
    passed: ['--count', '3', '--pipeline=false']
  })
})

test('the plan becomes wiregate gate flags, labels as JSON', () => {
  const argv = gateArgv({ baseRef: 's1', baseLabel: 'main', labels: ['a, b', 'wiregate allow breaking'], headSha: 's2' },
    { tmpDir: '/t' }, '/o')
  assert.equal(argv[0], 'gate')
  for (const flag of ['--base-ref=s1', '--base-label=main', '--labels=["a, b","wiregate allow breaking"]', '--out=/o', '--head-sha=s2']) {
    assert.ok(argv.includes(flag), flag)
  }
  // The binary finds its harness and buf as on a laptop: the action names neither.
  assert.ok(!argv.some(a => a.startsWith('--harness-dir') || a.startsWith('--buf')), argv.join(' '))
  assert.ok(!argv.some(a => a.startsWith('--head-label')))
  assert.ok(!argv.includes('--record-history'))
  const push = gateArgv({ baseRef: 's1', baseLabel: 's1', labels: [], recordHistory: true }, { tmpDir: '/t' }, '/o')
  assert.ok(push.includes('--record-history'))
})
