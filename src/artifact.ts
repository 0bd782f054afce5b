import { ArtifactNotFoundError, DefaultArtifactClient, type Artifact, type FindOptions } from '@actions/artifact'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import reportSchema from '../harness/parent/report/report.schema.json' with { type: 'json' }
import { WiregateError } from './errors.js'
import { onlyEntry } from './zip.js'

// The report artifact: how a gating run hands report.json to publish mode.
// Gate mode uploads it on every pull request run (a fork PR's token cannot
// comment, and a same-repo PR's run needs no special case); publish mode
// downloads it from the run in its workflow_run event, as hostile data.

/** Artifacts are named wiregate-report-<job id>: one per gating job, so two
 * wiregate jobs of one workflow do not collide, and the job id names the
 * sticky comment publish mode edits. */
export const ARTIFACT_PREFIX = 'wiregate-report-'
export const REPORT_FILE = 'report.json'

/** The limits on an artifact. A real report.json is tens of KiB; the limits
 * leave a hundredfold for large repositories and stop a forged artifact
 * from filling memory or the comment. */
export const MAX_ZIP_BYTES = 4 << 20
export const MAX_REPORT_BYTES = 4 << 20

/** Publish mode runs minutes after the gate; a week covers re-running it. */
const RETENTION_DAYS = 7

/** A GitHub job id: what the gating job's artifact name carries. */
const JOB_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/

export function artifactName(job: string): string {
  return ARTIFACT_PREFIX + job
}

/** jobOf is the job id an artifact name carries, if it is a report artifact. */
export function jobOf(name: string): string | undefined {
  if (!name.startsWith(ARTIFACT_PREFIX)) return undefined
  const job = name.slice(ARTIFACT_PREFIX.length)
  return JOB_ID.test(job) ? job : undefined
}

/** canUpload: the runner gives every action step the artifact service's
 * token; a local or test run without it uploads nothing. */
export function canUpload(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.ACTIONS_RUNTIME_TOKEN && env.ACTIONS_RESULTS_URL)
}

/** uploadReport uploads report.json as the job's artifact, replacing the
 * artifact of an earlier attempt of the same run (a re-run). */
export async function uploadReport(reportJson: string, job: string): Promise<{ name: string; id?: number }> {
  return replaceArtifact(artifactName(job), reportJson, 'report')
}

/** replaceArtifact uploads report.json as the artifact name, deleting one
 * of that name an earlier attempt of the run left. */
async function replaceArtifact(name: string, reportJson: string, what: string): Promise<{ name: string; id?: number }> {
  if (basename(reportJson) !== REPORT_FILE) throw new WiregateError(`the ${what} to upload is ${reportJson}, want a ${REPORT_FILE}`)
  const client = new DefaultArtifactClient()
  try {
    await client.deleteArtifact(name)
  } catch (err) {
    if (!(err instanceof ArtifactNotFoundError)) throw err
  }
  const uploaded = await client.uploadArtifact(name, [reportJson], dirname(reportJson), { retentionDays: RETENTION_DAYS })
  return { name, id: uploaded.id }
}

/** A shard's part of a sharded gate is its report.json, uploaded under the
 * name the gate gave it (report.shard.artifact, wiregate-part-<i>-of-<n>:
 * shard.PartName in Go decides it, and plan.json's parts carry it too): one
 * per matrix job (every job of a matrix has the same job id), read by mode:
 * merge in the same run. The action builds no part name: it passes Go's on,
 * and PART, the contract's pattern (report.PartNamePattern in Go, read from
 * report.schema.json), only recognises them among a run's artifacts. Which shards they
 * are, and whether they belong together, is the merge's (Go's) to say. */
const PART = new RegExp(reportSchema.$defs.Shard.properties.artifact.pattern)

/** isPartName says whether an artifact name is a shard's part. */
export function isPartName(name: string): boolean {
  return PART.test(name)
}

/** uploadPart uploads a shard's report.json for the merge job, as the
 * artifact name the gate wrote in it. */
export async function uploadPart(reportJson: string, name: string): Promise<{ name: string; id?: number }> {
  if (!isPartName(name)) throw new WiregateError(`report.json's shard.artifact is ${JSON.stringify(name.slice(0, 80))}, not a part's name (wiregate-part-<i>-of-<n>)`)
  return replaceArtifact(name, reportJson, 'part')
}

/** partArtifacts lists a run's shard parts (job holds the part's name). */
export async function partArtifacts(run: GatingRun): Promise<ReportArtifact[]> {
  const { artifacts } = await new DefaultArtifactClient().listArtifacts({ latest: true, findBy: findBy(run) })
  return artifacts.flatMap((a: Artifact) => (isPartName(a.name) ? [{ id: a.id, name: a.name, job: a.name, size: a.size, digest: a.digest }] : []))
}

/** The gating run whose artifacts publish mode reads. */
export interface GatingRun {
  token: string
  runId: number
  owner: string
  repo: string
}

export interface ReportArtifact {
  id: number
  name: string
  job: string
  size: number
  digest?: string
}

/** reportArtifacts lists the run's report artifacts (other artifacts of the
 * run are none of wiregate's business). */
export async function reportArtifacts(run: GatingRun): Promise<ReportArtifact[]> {
  const { artifacts } = await new DefaultArtifactClient().listArtifacts({ latest: true, findBy: findBy(run) })
  return artifacts.flatMap((a: Artifact) => {
    const job = jobOf(a.name)
    return job ? [{ id: a.id, name: a.name, job, size: a.size, digest: a.digest }] : []
  })
}

/** downloadReport fetches one report artifact into a fresh directory under
 * tmpDir and returns its report.json as text. The zip is checked against
 * its size before and after the download and against the digest the
 * artifact service recorded; the zip is read by onlyEntry, never extracted. */
export async function downloadReport(run: GatingRun, artifact: ReportArtifact, tmpDir: string): Promise<string> {
  const what = `artifact ${artifact.name} of run ${run.runId}`
  if (artifact.size > MAX_ZIP_BYTES) {
    throw new WiregateError(`${what} is ${artifact.size} bytes, more than the limit of ${MAX_ZIP_BYTES}`)
  }
  const dir = await mkdtemp(join(tmpDir, 'wiregate-artifact-'))
  try {
    return await readDownload(run, artifact, dir, what)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function readDownload(run: GatingRun, artifact: ReportArtifact, dir: string, what: string): Promise<string> {
  const { digestMismatch } = await new DefaultArtifactClient().downloadArtifact(artifact.id, {
    path: dir,
    findBy: findBy(run),
    skipDecompress: true,
    expectedHash: artifact.digest
  })
  if (digestMismatch) throw new WiregateError(`${what} does not match the digest the artifact service recorded`)
  const files = await readdir(dir)
  if (files.length !== 1) throw new WiregateError(`${what} downloaded as ${files.length} files, want one zip`)
  const zipPath = join(dir, files[0]!)
  const size = (await stat(zipPath)).size
  if (size > MAX_ZIP_BYTES) throw new WiregateError(`${what} is ${size} bytes, more than the limit of ${MAX_ZIP_BYTES}`)
  return onlyEntry(await readFile(zipPath), REPORT_FILE, MAX_REPORT_BYTES, what).toString('utf8')
}

function findBy(run: GatingRun): FindOptions['findBy'] {
  return { token: run.token, workflowRunId: run.runId, repositoryOwner: run.owner, repositoryName: run.repo }
}
