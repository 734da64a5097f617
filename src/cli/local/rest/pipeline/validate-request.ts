/**
 * Step: the method's request validator, after authorization and the API key, before the
 * integration. Required parameters first, then the body against its model; each failure is the
 * gateway's 400 (BAD_REQUEST_PARAMETERS, BAD_REQUEST_BODY). The console's TEST validates too.
 * A method without a validator returns at the first line.
 *
 * Bodies as API Gateway sends them, space after the colon included: `{"message": "Invalid request body"}`
 * and `{"message": "Missing required request parameters: [q]"}` (responses of deployed APIs
 * recorded in public test suites; the service's own messages have no other source).
 */
import { API_CONFIGURATION_ERROR, GatewayError, INVALID_REQUEST_BODY, missingRequestParameters } from './gateway-errors';
import type { RoutedRequest } from './request';
import type { BodyModelSpec, RequestValidationSpec } from '../../model/rest-api';
import { bodyProblems, missingParameters, modelFor, requestMediaType } from '../validation/request-checks';

export function validateRequest(routed: RoutedRequest): GatewayError | undefined {
  const validation = routed.route.method.requestValidation;
  if (validation === undefined) {
    return undefined;
  }
  return (validation.validateParameters ? checkParameters(routed, validation) : undefined)
    ?? (validation.validateBody ? checkBody(routed, validation) : undefined);
}

function checkParameters(routed: RoutedRequest, validation: RequestValidationSpec): GatewayError | undefined {
  const missing = missingParameters(validation.requiredParameters, {
    pathParameters: routed.route.pathParameters,
    query: routed.query,
    header: (name) => routed.headers.get(name),
  });
  if (missing.length === 0) {
    return undefined;
  }
  const error = missingRequestParameters(missing);
  routed.log?.add(`Request validation failed: ${error.message}`);
  routed.settings.note?.(routed.ids.requestId, `${where(routed)}: ${error.message} (validator ${validation.validatorName})`);
  return error;
}

function checkBody(routed: RoutedRequest, validation: RequestValidationSpec): GatewayError | undefined {
  const mediaType = requestMediaType(routed.headers.get('content-type'));
  const model = modelFor(validation.bodyModels, mediaType);
  if (model === undefined) {
    return undefined;
  }
  if (!isUsable(model)) {
    routed.log?.add(`Execution failed due to configuration error: model ${model.name} cannot validate the request body: ${model.problem}`);
    routed.settings.note?.(routed.ids.requestId, `${where(routed)}: model ${model.name} cannot validate the request body (${model.problem}); answered 500`);
    return API_CONFIGURATION_ERROR;
  }
  const problems = bodyProblems(model, routed.request.body);
  if (problems.length === 0) {
    return undefined;
  }
  // The console's log line; `$context.error.validationErrorString` carries the same list.
  routed.log?.add(`Request body does not match model schema for content type ${mediaType}: [${problems.map((p) => p.text).join(', ')}]`);
  const details = problems.map((p) => (p.pointer === '/' ? p.text : `${p.pointer}: ${p.text}`)).join('; ');
  routed.settings.note?.(routed.ids.requestId, `${where(routed)}: request body does not match model ${model.name} (${mediaType}): ${details}`);
  return { ...INVALID_REQUEST_BODY, validationErrorString: `[${problems.map((p) => p.text).join(', ')}]` };
}

function isUsable(model: BodyModelSpec): model is BodyModelSpec & { validate: NonNullable<BodyModelSpec['validate']> } {
  return model.validate !== undefined;
}

function where(routed: RoutedRequest): string {
  return `${routed.route.method.httpMethod} ${routed.route.resource.path}`;
}
