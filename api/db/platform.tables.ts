/** Row types of what several processes on one database share: the shop's secrets and the periodic jobs' leases. */
export interface ShopSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** A periodic job's lease (`job-lease.ts`: the backup schedule, the orders' sweep). */
export interface JobLeasesTable {
  name: string;
  /** When the job's last run began (ms since epoch); 0 before the first. */
  started_at: number;
  /** Which process took it (host and pid), for the log. */
  holder: string;
}

export interface PlatformTables {
  job_leases: JobLeasesTable;
  shop_secrets: ShopSecretsTable;
}
