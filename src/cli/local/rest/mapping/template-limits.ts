/**
 * API Gateway's documented limits on mapping templates (Quotas for configuring and running a REST
 * API in API Gateway,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html),
 * and the local bounds on evaluating one (the gateway documents none for time or memory).
 */

/**
 * "Iterations in a #foreach ... #end loop in mapping templates": 1,000. Counted per loop, each time
 * the loop runs, as Apache Velocity's `directive.foreach.maxloops` counts: the loop stops quietly
 * after that many iterations and the template goes on.
 */
export const MAX_FOREACH_ITERATIONS = 1000;

/** "Mapping template maximum size": 300 KB. */
export const MAX_TEMPLATE_BYTES = 300 * 1024;

/** "Payload size": 10 MB, the template's output included (the same 10,485,760 bytes as the request body limit). */
export const MAX_TEMPLATE_OUTPUT_BYTES = 10 * 1024 * 1024;

/**
 * A range (`[1..n]`) used as a value is a list of all its numbers; longer ranges are refused rather
 * than built. A range that a `#foreach` walks is never built (it stops at the loop limit anyway).
 */
export const MAX_RANGE_ELEMENTS = 1_000_000;

/** Wall-clock time a template may take; past it the evaluation is stopped and the template fails. */
export const TEMPLATE_DEADLINE_MS = 3000;

/**
 * What a template may take on the server's thread before it is stopped and evaluated again in a
 * template host process: most templates take well under a millisecond, and evaluating them in
 * place spares the crossing (about four times the throughput of a templated route).
 */
export const IN_THREAD_BUDGET_MS = 5;

/** A request or response body larger than this is never evaluated on the server's thread (one step may parse it whole). */
export const MAX_IN_THREAD_BODY_CHARS = 64 * 1024;

/** Templates evaluated at once, each in a template host process of its own; more wait for a free host. */
export const MAX_TEMPLATE_HOSTS = 4;

/** Heap of a process that evaluates templates (a 10 MB body parsed, plus a 10 MB output, fit many times). */
export const TEMPLATE_HOST_HEAP_MB = 512;
