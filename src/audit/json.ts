// `-o json`: the report as compact JSON, produced in chunks so that a report of tens of
// megabytes (10,000 namespaces) is never held as one string next to the report itself.
// Concatenated, the chunks are exactly JSON.stringify(report): the JSON is the model, as is.

import type { AuditReport } from "./model.ts";

/**
 * Array elements per JSON.stringify call: one call per element costs about three times as much
 * (each call has its own set-up); batches of hundreds make strings large enough to live until
 * a full collection (tens of megabytes more resident memory for a 10,000-namespace report).
 */
const batchSize = 64;

export function* reportJsonChunks(report: AuditReport): Generator<string> {
  let head = "{";
  for (const [key, value] of Object.entries(report)) {
    if (value === undefined) continue;
    head += `${head === "{" ? "" : ","}${JSON.stringify(key)}:`;
    if (!Array.isArray(value) || value.length <= batchSize) {
      head += JSON.stringify(value);
      continue;
    }
    yield `${head}[`;
    for (let i = 0; i < value.length; i += batchSize) {
      const batch = JSON.stringify(value.slice(i, i + batchSize));
      // Without the batch's own brackets, joined by the comma between two elements.
      yield `${i === 0 ? "" : ","}${batch.slice(1, -1)}`;
    }
    head = "]";
  }
  yield `${head}}\n`;
}
