/**
 * User pool ids and issuers. A pool the template creates has no id before deploy, so locally it
 * is `<region>_<logical id>`: stable across syntheses, and in the shape Cognito's ids have.
 */

/** `arn:aws:cognito-idp:<region>:<account>:userpool/<pool id>`. */
const POOL_ARN = /^arn:aws[a-z-]*:cognito-idp:([a-z0-9-]+):\d{12}:userpool\/(([a-z0-9-]+)_[0-9A-Za-z]+)$/;

/** `<region>_<letters and digits>`, as Cognito writes pool ids. */
const POOL_ID = /^([a-z]{2}(?:-[a-z]+)+-\d+)_[0-9A-Za-z]+$/;

/** The region and id of a pool ARN; undefined when `arn` is not one. */
export function parsePoolArn(arn: string): { region: string; poolId: string } | undefined {
  const m = POOL_ARN.exec(arn);
  return m && m[3] === m[1] ? { region: m[1], poolId: m[2] } : undefined;
}

/** The region a pool id starts with; undefined when `poolId` is not a pool id. */
export function poolIdRegion(poolId: string): string | undefined {
  return POOL_ID.exec(poolId)?.[1];
}

/** The id a pool of the template gets locally. */
export function localPoolId(region: string, logicalId: string): string {
  return `${region}_${logicalId.replace(/[^0-9A-Za-z]/g, '')}`;
}

/** The `iss` claim of a pool's tokens. */
export function poolIssuer(region: string, poolId: string): string {
  return `https://cognito-idp.${region}.amazonaws.com/${poolId}`;
}
