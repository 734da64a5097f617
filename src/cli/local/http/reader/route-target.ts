/**
 * The integration a route's `Target` (`integrations/<integration id>`, a `Fn::Join` with a `Ref`)
 * points to: the logical id of an `AWS::ApiGatewayV2::Integration` of the template.
 */
import { isPlainObject } from '../../../../outputs/cdk-free/json-data';

export function targetIntegrationId(target: unknown, resources: Record<string, any>): string | undefined {
  if (Array.isArray(target)) {
    for (const item of target) {
      const found = targetIntegrationId(item, resources);
      if (found !== undefined) {
        return found;
      }
    }
    return undefined;
  }
  if (!isPlainObject(target)) {
    return undefined;
  }
  if (typeof target.Ref === 'string') {
    return resources[target.Ref]?.Type === 'AWS::ApiGatewayV2::Integration' ? target.Ref : undefined;
  }
  return targetIntegrationId(Object.values(target), resources);
}
