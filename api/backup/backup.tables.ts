/** Row types of the periodic jobs' leases (`api/db/job-lease.ts`: the backup schedule, the orders' sweep). */
export interface JobLeasesTable {
  name: string;
  /** When the job's last run began (ms since epoch); 0 before the first. */
  started_at: number;
  /** Which process took it (host and pid), for the log. */
  holder: string;
}

export interface BackupTables {
  job_leases: JobLeasesTable;
}
