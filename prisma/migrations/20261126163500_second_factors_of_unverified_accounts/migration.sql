-- An account whose address was never confirmed may be a squatter's, made with someone else's
-- address: a passkey or two-factor sign-in set up on it would let the squatter in, or keep the
-- real owner out, after the owner recovers the account by email. They are no longer set up before
-- the address is confirmed (docs/security.md, Passkeys); those set up earlier are removed.
DELETE FROM "passkey" WHERE "userId" IN (SELECT "id" FROM "user" WHERE NOT "emailVerified");
DELETE FROM "twoFactor" WHERE "userId" IN (SELECT "id" FROM "user" WHERE NOT "emailVerified");
UPDATE "user" SET "twoFactorEnabled" = false WHERE NOT "emailVerified" AND "twoFactorEnabled";
