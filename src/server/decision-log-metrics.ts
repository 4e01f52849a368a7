// The decision-log sink's metrics (--decision-log): events sent and dropped, uploads that failed, and
// events waiting, read from the sink's counts when scraped. Present only with a sink.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DecisionLogStats } from '../audit/decision-log.js';

/** A counter that follows a running total read at scrape time. */
function totalCounter(registers: Registry[], name: string, help: string, read: () => number | undefined) {
  let counted = 0;
  new Counter({
    name,
    help,
    registers,
    collect() {
      const now = read() ?? 0;
      if (now > counted) this.inc(now - counted);
      counted = now;
    },
  });
}

export function decisionLogMetrics(registers: Registry[], stats: () => DecisionLogStats | undefined): void {
  if (stats() === undefined) return;
  totalCounter(
    registers,
    'hookwarden_decision_log_sent_total',
    'Decision-log events the sink accepted.',
    () => stats()?.sent,
  );
  totalCounter(
    registers,
    'hookwarden_decision_log_dropped_total',
    'Decision-log events given up: the buffer was full while the sink was slow or down, the sink refused their batch, or the server stopped first.',
    () => stats()?.dropped,
  );
  totalCounter(
    registers,
    'hookwarden_decision_log_upload_failures_total',
    'Decision-log uploads that failed (no answer in time, refused connection, an error status); each is retried.',
    () => stats()?.failedUploads,
  );
  new Gauge({
    name: 'hookwarden_decision_log_buffered',
    help: 'Decision-log events waiting to be sent.',
    registers,
    collect() {
      this.set(stats()?.buffered ?? 0);
    },
  });
}
