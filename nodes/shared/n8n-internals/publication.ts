/**
 * Shortcut 15 of n8n-internals (index.ts): how long n8n 2.41's workflow publication service lets a
 * publish or an unpublish run, and so how long the webhook Trigger's activation hooks may wait for
 * the node's heal (BusinessPlatformSalesTrigger/registrations.ts, polling/turns.ts).
 */

// ── n8n-internals 15. The publication deadline ─────────────────────────────────────────────
// Relies on: n8n 2.41.1's publication outbox consumer (n8n/dist/workflows/publication/
// workflow-publication-outbox-consumer.js, processRecordWithAbort) aborts a publication record
// (a publish, an unpublish, an edit of a published workflow) once it has run 0.7 × its lease
// (ABORT_AFTER_LEASE_FRACTION; the lease is publicationOutboxLeaseSeconds, 120 s by default,
// N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS): 84 s. The webhook trigger's hook calls run under
// raceAbort (n8n/dist/workflows/triggers/workflow-trigger-activator.js): at the deadline n8n
// reports the publication failed while the hook runs on in the background (onDetached), and the
// user sees an error for an unpublish that goes on. n8n 1.x has no such deadline: it awaits the
// delete hook (active-workflow-manager.js clearWebhooks) however long it runs.
// Buys: an activation hook waits for the node's running heal at most ACTIVATION_WAIT_MS, well under
// the deadline, leaving the rest of it to its own requests; the heal gives way at once anyway
// (an unpublish ends its activation before it waits: turns.ts endLive).
// When it does not hold: a longer deadline changes nothing; a lease set below about 43 s makes an
// unpublish beside a slow heal fail in n8n (the hook goes on and removes the registrations, and the
// heal registers nothing again: it stood down when the unpublish began).

/** n8n 2.41.1's deadline for a publication with its default lease: 0.7 × 120 s. */
export const PUBLICATION_DEADLINE_MS = 84_000;

/** How long an activation hook waits at most for the node's running heal: well under PUBLICATION_DEADLINE_MS. */
export const ACTIVATION_WAIT_MS = 30_000;
