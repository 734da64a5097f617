import { AnalyticsOutputs } from './analytics';
import { AuthOutputs } from './auth';
import { DataOutputs } from './data';
import { GeoOutputs } from './geo';
import { NotificationsOutputs } from './notifications';
import { StorageOutputs } from './storage';

/**
 * A part of vendor_outputs.json, as passed to `addOutput`: each top-level key is a section.
 *
 * Property names are the camelCase of the file's snake_case keys; `custom` and
 * `data.modelIntrospection` keep their keys unchanged. `version` and `$schema` are managed
 * by the library and cannot be set.
 */
export interface BackendOutputs {
  /** @default - section not written by this call */
  readonly analytics?: AnalyticsOutputs;
  /** @default - section not written by this call */
  readonly auth?: AuthOutputs;
  /** @default - section not written by this call */
  readonly data?: DataOutputs;
  /** @default - section not written by this call */
  readonly geo?: GeoOutputs;
  /** @default - section not written by this call */
  readonly notifications?: NotificationsOutputs;
  /** @default - section not written by this call */
  readonly storage?: StorageOutputs;
  /**
   * Free-form values; keys are written unchanged.
   * @default - section not written by this call
   */
  readonly custom?: { [key: string]: any };
}

/** The sections of vendor_outputs.json, for claiming a section with `VendorOutputs.claim`. */
export enum OutputSection {
  ANALYTICS = 'analytics',
  AUTH = 'auth',
  DATA = 'data',
  GEO = 'geo',
  NOTIFICATIONS = 'notifications',
  STORAGE = 'storage',
  CUSTOM = 'custom',
}
