-- Accounts made before email verification existed (docs/security.md, Email verification) keep
-- every ability they had: their addresses count as verified.
UPDATE "user" SET "emailVerified" = true WHERE NOT "emailVerified";
