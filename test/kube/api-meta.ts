/**
 * Object metadata the API server writes itself: managedFields entries of server-side field tracking.
 */
import type { Json } from './fields.js';

/**
 * One `metadata.managedFields` entry: the fields `manager` owns (FieldsV1, keys `f:<field>`,
 * `k:{…}` for list items by key, `v:…` for set items), written by an Update at `time`.
 */
export function managedFieldsEntry(manager: string, time: string, fieldsV1: Json, apiVersion = 'v1'): Json {
  return { manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1 };
}
