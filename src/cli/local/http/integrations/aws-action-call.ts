/**
 * The API call of one AWS service integration, in the service's own wire protocol, from the
 * action's parameters (each a string, as parameter mapping gives them; `Region` is not sent):
 *
 * - SQS, query protocol: a form `POST /` with `Action`, `Version=2012-11-05` and the parameters;
 *   lists (`AttributeNames`, a JSON array or comma-separated) flattened as `AttributeName.1`, and
 *   maps (`MessageAttributes`, a JSON object) as `MessageAttribute.1.Name`/`.Value.DataType`/...;
 *   `Accept: application/json` asks for the JSON form of the answer that HTTP APIs relay.
 * - EventBridge, Kinesis, Step Functions, JSON protocols: `POST /` with `X-Amz-Target:
 *   <prefix>.<Action>` and the parameters as a JSON object (PutEvents wraps them as its one entry
 *   of `Entries`, `Resources` a list).
 * - AppConfig, REST protocol: `GET /applications/<Application>/environments/<Environment>/configurations/<Configuration>?client_id=...`.
 *
 * The call is written as an `arn:aws:apigateway:<region>:<service>:path/...` URI with headers and
 * body, which ../../rest/integrations/aws-service-request.ts signs and addresses as REST's AWS
 * integrations are.
 */
import type { AwsSubtype } from './aws-subtypes';
import { awsService } from '../../rest/integrations/aws-services';

export interface AwsActionCall {
  readonly uri: string;
  readonly method: string;
  readonly headers: Array<[string, string]>;
  readonly body: Buffer;
}

export function awsActionCall(subtype: AwsSubtype, parameters: Readonly<Record<string, string>>, region: string): AwsActionCall {
  const sent = Object.fromEntries(Object.entries(parameters).filter(([name]) => name !== 'Region'));
  const uri = (path: string) => `arn:aws:apigateway:${region}:${subtype.service}:path/${path}`;
  if (subtype.service === 'appconfig') {
    return appConfigCall(sent, uri);
  }
  const protocol = awsService(subtype.service).protocol;
  if (protocol.kind === 'json') {
    const body = subtype.name === 'EventBridge-PutEvents' ? { Entries: [eventEntry(sent)] } : sent;
    return {
      uri: uri(''),
      method: 'POST',
      headers: [['Content-Type', protocol.contentType], ['X-Amz-Target', `${protocol.targetPrefix}.${subtype.action}`]],
      body: Buffer.from(JSON.stringify(body)),
    };
  }
  const form = [['Action', subtype.action], ['Version', '2012-11-05'], ...queryParameters(sent)];
  return {
    uri: uri(''),
    method: 'POST',
    headers: [['Content-Type', 'application/x-www-form-urlencoded; charset=utf-8'], ['Accept', 'application/json']],
    body: Buffer.from(form.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&')),
  };
}

function appConfigCall(sent: Record<string, string>, uri: (path: string) => string): AwsActionCall {
  const segment = (name: string) => encodeURIComponent(sent[name] ?? '');
  const query = [['client_id', sent.ClientId], ['client_configuration_version', sent.ClientConfigurationVersion]]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value!)}`).join('&');
  const path = `applications/${segment('Application')}/environments/${segment('Environment')}/configurations/${segment('Configuration')}`;
  return { uri: uri(`${path}${query === '' ? '' : `?${query}`}`), method: 'GET', headers: [], body: Buffer.alloc(0) };
}

/** PutEvents' one entry: `Resources` as a list, the rest as mapped. */
function eventEntry(sent: Record<string, string>): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...sent };
  if (sent.Resources !== undefined) {
    entry.Resources = listOf(sent.Resources);
  }
  return entry;
}

/** The query protocol's flattened parameters: lists as `<Name>.N`, maps as `<Name>.N.Name` and `.Value.<field>`. */
function queryParameters(sent: Record<string, string>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(sent)) {
    if (name === 'AttributeNames' || name === 'MessageAttributeNames') {
      listOf(value).forEach((item, i) => pairs.push([`${name.slice(0, -1)}.${i + 1}`, item]));
    } else if (name === 'MessageAttributes' || name === 'MessageSystemAttributes') {
      pairs.push(...attributeMap(name.slice(0, -1), value));
    } else {
      pairs.push([name, value]);
    }
  }
  return pairs;
}

/** `{"name": {"DataType": "String", "StringValue": "x"}}` → `Prefix.1.Name=name`, `Prefix.1.Value.DataType=String`, ...; not an object: sent as it is. */
function attributeMap(prefix: string, value: string): Array<[string, string]> {
  const parsed = parseJson(value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return [[`${prefix}s`, value]];
  }
  const pairs: Array<[string, string]> = [];
  Object.entries(parsed as Record<string, unknown>).forEach(([attribute, fields], i) => {
    pairs.push([`${prefix}.${i + 1}.Name`, attribute]);
    for (const [field, fieldValue] of Object.entries(fields !== null && typeof fields === 'object' ? fields as Record<string, unknown> : {})) {
      pairs.push([`${prefix}.${i + 1}.Value.${field}`, String(fieldValue)]);
    }
  });
  return pairs;
}

/** A JSON array of strings, else comma-separated items. */
function listOf(value: string): string[] {
  const parsed = parseJson(value);
  if (Array.isArray(parsed)) {
    return parsed.map(String);
  }
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
