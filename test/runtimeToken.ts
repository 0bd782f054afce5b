/** runtimeToken is an ACTIONS_RUNTIME_TOKEN as the artifact client reads it:
 * a JWT whose scp claim names the run's and the job's backend ids. The
 * stand-in (fakeGitHub.ts) files an upload under the run id given here. */
export function runtimeToken(runId: string): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ scp: `Actions.GenericRead Actions.Results:${runId}:job-${runId}` })}.`
}
