/** Says plainly, once per run, which databases the API tests run on. */
export default function setup(): void {
  if (process.env.TEST_DATABASE_URL) {
    console.log(`API tests run on SQLite and on PostgreSQL (${process.env.TEST_DATABASE_URL}).`);
  } else {
    console.log(
      'PostgreSQL API tests SKIPPED: TEST_DATABASE_URL is not set. ' +
        'Run `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test` (as .ci/run does) to include them.',
    );
  }
}
