-- Teams (docs/teams.md): every account becomes a publication (better-auth's organization) with
-- the same id, its handle and plan, and its owner as the only member. The tables of what an
-- account owns keep their "userId" column, which from now on names the publication: their foreign
-- keys move from "user" to "organization", so no row changes.

-- DropForeignKey
ALTER TABLE "api_key" DROP CONSTRAINT "api_key_userId_fkey";

-- DropForeignKey
ALTER TABLE "blog" DROP CONSTRAINT "blog_userId_fkey";

-- DropForeignKey
ALTER TABLE "blog_view_daily" DROP CONSTRAINT "blog_view_daily_userId_fkey";

-- DropForeignKey
ALTER TABLE "image" DROP CONSTRAINT "image_userId_fkey";

-- DropForeignKey
ALTER TABLE "import" DROP CONSTRAINT "import_userId_fkey";

-- DropForeignKey
ALTER TABLE "publication" DROP CONSTRAINT "publication_userId_fkey";

-- DropForeignKey
ALTER TABLE "referrer_view_daily" DROP CONSTRAINT "referrer_view_daily_userId_fkey";

-- DropForeignKey
ALTER TABLE "subscriber" DROP CONSTRAINT "subscriber_userId_fkey";

-- DropForeignKey
ALTER TABLE "webhook_endpoint" DROP CONSTRAINT "webhook_endpoint_userId_fkey";

-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "createdById" TEXT;

-- AlterTable
ALTER TABLE "blog" ADD COLUMN     "authors" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "inReviewAt" TIMESTAMPTZ(3);

-- Every blog so far was written by its account's founder. Not a change anyone made: no revision,
-- webhook or public-cache move (the triggers on "blog" are off for it).
ALTER TABLE "blog" DISABLE TRIGGER USER;
UPDATE "blog" SET "authors" = ARRAY["userId"];
ALTER TABLE "blog" ENABLE TRIGGER USER;

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "activeOrganizationId" TEXT;

-- CreateTable
CREATE TABLE "organization" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "logo" TEXT,
    "metadata" TEXT,
    "plan" "Plan" NOT NULL DEFAULT 'free',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitation" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "inviterId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organization_handle_key" ON "organization"("handle");

-- CreateIndex
CREATE INDEX "member_userId_idx" ON "member"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "member_organizationId_userId_key" ON "member"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "invitation_organizationId_status_idx" ON "invitation"("organizationId", "status");

-- CreateIndex
CREATE INDEX "invitation_email_idx" ON "invitation"("email");

-- Every account, a publication of the same id, name, handle and plan, owned by its founder.
INSERT INTO "organization" ("id", "name", "handle", "plan", "createdAt")
SELECT "id", "name", "handle", "plan", "createdAt" FROM "user";

INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt")
SELECT replace(gen_random_uuid()::text, '-', ''), "id", "id", 'owner', "createdAt" FROM "user";

-- The founder made every key of their account.
UPDATE "api_key" SET "createdById" = "userId";

-- The plan is the publication's now.
ALTER TABLE "user" DROP COLUMN "plan";

-- AddForeignKey
ALTER TABLE "member" ADD CONSTRAINT "member_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member" ADD CONSTRAINT "member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blog" ADD CONSTRAINT "blog_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "publication" ADD CONSTRAINT "publication_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referrer_view_daily" ADD CONSTRAINT "referrer_view_daily_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blog_view_daily" ADD CONSTRAINT "blog_view_daily_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image" ADD CONSTRAINT "image_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber" ADD CONSTRAINT "subscriber_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import" ADD CONSTRAINT "import_userId_fkey" FOREIGN KEY ("userId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
