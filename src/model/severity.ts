/** How serious a finding is. Its own module so that results.ts and the reason registries both import it without importing each other. */
export type Severity = 'error' | 'warning' | 'info';
