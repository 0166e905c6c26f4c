/**
 * Says plainly, once per run, which databases the API tests run on; and lowers the cost of the
 * password hashes the tests make (api/accounts/password.ts `hashParams`: still scrypt, N=2^14
 * instead of 2^17; the test workers and the servers they start inherit it).
 */
export default function setup(): void {
  process.env.STOREFRONT_TEST_SCRYPT_N ??= String(2 ** 14);
  if (process.env.TEST_DATABASE_URL) {
    console.log(`API tests run on SQLite and on PostgreSQL (${process.env.TEST_DATABASE_URL}).`);
  } else {
    console.log(
      'PostgreSQL API tests SKIPPED: TEST_DATABASE_URL is not set. ' +
        'Run `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test` (as .ci/run does) to include them.',
    );
  }
}
