import { z } from "zod";

/**
 * A subscriber's email address (docs/public-blog.md, Subscribe form): the one rule for the public
 * form and, later, the subscribers' API. 254 characters is the longest address SMTP carries.
 */
export const subscriberEmailSchema = z.email().max(254);
