/**
 * The integration request's body: the request template chosen by the request's `Content-Type`
 * (absent: `application/json`), or the body passed through as the passthrough behaviour allows;
 * `ContentHandling` converts between text and binary.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/integration-passthrough-behaviors.html
 */
import { templateInputOf } from './template-input';
import type { NonProxyIntegrationSpec } from '../../../model/rest-api';
import { isBinaryType } from '../../binary-media-type';
import { ContextOverrides } from '../../mapping/context-variable';
import { renderTemplate } from '../../mapping/render-template';
import type { RoutedRequest } from '../../pipeline/request';

/** The mapped request, or a refusal: 415 when the passthrough behaviour rejects the content type. */
export type MappedRequest =
  | {
    readonly body: Buffer;
    /** The content type of the template used (the request's when passed through). */
    readonly contentType: string | undefined;
    readonly overrides?: ContextOverrides['requestOverride'];
  }
  | { readonly unsupportedMediaType: true };

/** `text/plain; charset=utf-8` → `text/plain`. */
export function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type === '' ? undefined : type;
}

/** Rejects with the template's {@link TemplateError} when it cannot be evaluated. */
export async function mapRequest(routed: RoutedRequest, integration: NonProxyIntegrationSpec): Promise<MappedRequest> {
  const templates = integration.requestTemplates;
  const requested = mediaType(routed.headers.get('content-type')) ?? 'application/json';
  const key = Object.keys(templates).find((type) => type.toLowerCase() === requested);
  const binary = routed.request.body.length > 0 && isBinaryType(routed.headers.get('content-type'), routed.settings.api.binaryMediaTypes);
  if (key === undefined) {
    const any = Object.keys(templates).length > 0;
    const behavior = integration.passthroughBehavior;
    if (behavior === 'NEVER' || (behavior === 'WHEN_NO_TEMPLATES' && any)) {
      return { unsupportedMediaType: true };
    }
    return { body: convert(routed.request.body, binary, integration.contentHandling), contentType: routed.headers.get('content-type') };
  }
  if (integration.contentHandling === 'CONVERT_TO_BINARY') {
    // The payload is decoded from base64 and sent as bytes; a template does not apply to bytes.
    return { body: convert(routed.request.body, false, 'CONVERT_TO_BINARY'), contentType: key };
  }
  const payload = binary ? routed.request.body.toString('base64') : routed.request.body.toString('utf8');
  const output = await renderTemplate(templates[key], templateInputOf(routed, payload));
  return { body: Buffer.from(output.text, 'utf8'), contentType: key, overrides: output.context.requestOverride };
}

/** A binary payload becomes base64 text with CONVERT_TO_TEXT; a text payload is base64-decoded with CONVERT_TO_BINARY. */
export function convert(body: Buffer, binary: boolean, handling: NonProxyIntegrationSpec['contentHandling']): Buffer {
  if (handling === 'CONVERT_TO_TEXT' && binary) {
    return Buffer.from(body.toString('base64'), 'utf8');
  }
  if (handling === 'CONVERT_TO_BINARY' && !binary) {
    return Buffer.from(body.toString('utf8'), 'base64');
  }
  return body;
}
