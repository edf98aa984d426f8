-- CreateTable
CREATE TABLE "publication" (
    "userId" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "logoImageId" TEXT,
    "iconImageId" TEXT,
    "accentColor" TEXT,
    "language" TEXT NOT NULL DEFAULT 'en',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "navigation" JSONB NOT NULL DEFAULT '[]',
    "socialLinks" JSONB NOT NULL DEFAULT '[]',
    "footer" TEXT NOT NULL DEFAULT '',
    "domain" TEXT,
    "domainToken" TEXT,
    "domainVerifiedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "publication_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "publication_domain_key" ON "publication"("domain");

-- AddForeignKey
ALTER TABLE "publication" ADD CONSTRAINT "publication_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "publication" ADD CONSTRAINT "publication_logoImageId_fkey" FOREIGN KEY ("logoImageId") REFERENCES "image"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "publication" ADD CONSTRAINT "publication_iconImageId_fkey" FOREIGN KEY ("iconImageId") REFERENCES "image"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A change to the publication changes every public page, feed and share image of its account
-- (docs/publication.md): its public content version moves in the same transaction, whoever
-- writes, as a write to its public blogs moves it. The version is made when missing, so an owner
-- with no public blog yet has one for their publication's home. An account's deletion cascades
-- here with nothing left to move.
CREATE FUNCTION "publication_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM "user" WHERE "id" = OLD."userId") THEN
      PERFORM "public_content_version_move"(ARRAY[OLD."userId"]);
    END IF;
  ELSE
    PERFORM "public_content_version_move"(ARRAY[NEW."userId"]);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "publication_changed_insert" AFTER INSERT ON "publication"
  FOR EACH ROW EXECUTE FUNCTION "publication_changed"();
CREATE TRIGGER "publication_changed_update" AFTER UPDATE ON "publication"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "publication_changed"();
CREATE TRIGGER "publication_changed_delete" AFTER DELETE ON "publication"
  FOR EACH ROW EXECUTE FUNCTION "publication_changed"();
