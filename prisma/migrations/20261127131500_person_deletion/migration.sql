-- Deleting a person deletes the publications they own (docs/teams.md), whoever deletes them
-- (better-auth's account deletion, the CLI, SQL): each takes its blogs, keys, webhooks,
-- subscribers and memberships with it by the foreign keys' cascades. Before the row goes, while
-- their owner membership still says which publications are theirs.
CREATE OR REPLACE FUNCTION public.user_delete_owned_publications()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "organization" AS o
  WHERE EXISTS (SELECT 1 FROM "member" AS m WHERE m."organizationId" = o."id" AND m."userId" = OLD."id" AND m."role" = 'owner');
  RETURN OLD;
END;
$function$;

CREATE TRIGGER user_delete_owned_publications BEFORE DELETE ON public."user" FOR EACH ROW EXECUTE FUNCTION user_delete_owned_publications();
