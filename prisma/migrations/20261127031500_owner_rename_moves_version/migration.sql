-- Every account with a handle has a public home now (docs/publication.md), its publication titled
-- after the owner's name by default: a rename moves the account's public content version even
-- before its first public blog, so a cached home shows the new name at once.
CREATE OR REPLACE FUNCTION public.public_content_owner_renamed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM "public_content_version_move"(ARRAY[NEW."id"]);
  RETURN NULL;
END;
$function$;
