import "server-only";
import { Body, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Text } from "@react-email/components";
import { render, toPlainText } from "@react-email/render";
import type { CoverImage } from "~/server/blogs/public-blogs";
import type { ImageReference } from "~/shared/images";
import { unsubscribeUrl } from "~/server/subscribers/links";
import { articleEmailHtml, EMAIL_WIDTH, emailImageUrl, emailStyle } from "./article-email";

/**
 * A post's newsletter email (docs/newsletters.md, Sending), laid out with React Email's components
 * (tables and inline styles mail clients render alike). It is rendered once per batch with a
 * placeholder for the subscriber's unsubscribe secret, the only part that differs between
 * recipients; `personalize` writes each one's in.
 */

/** Stands for the subscriber's unsubscribe token in the rendered email: nothing a token, a post or a URL encoder produces. */
const TOKEN_PLACEHOLDER = "UNSUBSCRIBETOKENPLACEHOLDER";

export interface NewsletterPost {
  title: string;
  description: string;
  content: string;
  cover: CoverImage | null;
  imagesWithPendingVariants: string[];
  /** The post's page. */
  url: string;
}

export interface NewsletterSite {
  title: string;
  /** Where the publication's images are served: the app's origin, or its custom domain's. */
  origin: string;
  /** The publication's home, absolute, no trailing slash (src/server/public-site/home.ts). */
  home: string;
  /** The links' colour, readable on white. */
  linkColor: string;
  logo: ImageReference | null;
}

export interface RenderedNewsletter {
  subject: string;
  html: string;
  text: string;
}

function NewsletterEmail({ post, site, articleHtml, unsubscribe }: { post: NewsletterPost; site: NewsletterSite; articleHtml: string; unsubscribe: string }) {
  const { font, text, muted, border } = emailStyle;
  const small = { fontFamily: font, fontSize: "13px", lineHeight: "1.6", color: muted, margin: "0 0 8px" };
  const link = { color: site.linkColor, textDecoration: "underline" };
  return (
    <Html lang="en">
      <Head />
      {post.description && <Preview>{post.description}</Preview>}
      <Body style={{ backgroundColor: "#ffffff", margin: "0", padding: "0" }}>
        <Container style={{ maxWidth: `${EMAIL_WIDTH}px`, padding: "24px 16px" }}>
          <Section style={{ paddingBottom: "16px", borderBottom: `1px solid ${border}`, marginBottom: "24px" }}>
            <Link href={site.home} style={{ color: text, textDecoration: "none", fontFamily: font, fontSize: "15px", fontWeight: 700 }}>
              {site.logo && (
                <Img src={emailImageUrl(site.logo, site.origin)} alt="" height="32" style={{ display: "inline-block", height: "32px", width: "auto", verticalAlign: "middle", marginRight: "8px" }} />
              )}
              <span style={{ verticalAlign: "middle" }}>{site.title}</span>
            </Link>
          </Section>
          <Heading as="h1" style={{ fontFamily: font, fontSize: "28px", lineHeight: "1.25", fontWeight: 700, color: text, margin: "0 0 16px" }}>
            <Link href={post.url} style={{ color: text, textDecoration: "none" }}>
              {post.title}
            </Link>
          </Heading>
          {post.cover && (
            <Img
              src={emailImageUrl(post.cover, site.origin)}
              alt=""
              width={String(EMAIL_WIDTH)}
              style={{ display: "block", width: "100%", maxWidth: `${EMAIL_WIDTH}px`, height: "auto", border: "0", borderRadius: "6px", margin: "0 0 24px" }}
            />
          )}
          <div dangerouslySetInnerHTML={{ __html: articleHtml }} />
          <Hr style={{ borderColor: border, margin: "32px 0 16px" }} />
          <Text style={small}>
            <Link href={post.url} style={link}>
              Read it on the web
            </Link>
          </Text>
          <Text style={small}>
            You receive this email because you subscribed to {site.title}.{" "}
            <Link href={unsubscribe} style={link}>
              Unsubscribe
            </Link>{" "}
            or{" "}
            <Link href={unsubscribe} style={link}>
              manage your subscription
            </Link>
            .
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Headings in the plain-text part as the post writes them (html-to-text's default shouts them in capitals). */
const PLAIN_TEXT_SELECTORS = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } }));

/** The post's email for every subscriber, their unsubscribe secret still a placeholder. */
export async function renderNewsletter(post: NewsletterPost, site: NewsletterSite): Promise<RenderedNewsletter> {
  const articleHtml = articleEmailHtml(post.content, { origin: site.origin, postUrl: post.url, accent: site.linkColor, imagesWithPendingVariants: post.imagesWithPendingVariants });
  const email = <NewsletterEmail post={post} site={site} articleHtml={articleHtml} unsubscribe={unsubscribeUrl(site.home, TOKEN_PLACEHOLDER)} />;
  const html = await render(email);
  return { subject: post.title, html, text: toPlainText(html, { selectors: PLAIN_TEXT_SELECTORS }) };
}

/** The email of the subscriber whose unsubscribe secret is `token`, and the address of their unsubscribe link (for List-Unsubscribe). */
export function personalize(rendered: RenderedNewsletter, home: string, token: string): RenderedNewsletter & { unsubscribeUrl: string } {
  const value = encodeURIComponent(token);
  return { subject: rendered.subject, html: rendered.html.replaceAll(TOKEN_PLACEHOLDER, value), text: rendered.text.replaceAll(TOKEN_PLACEHOLDER, value), unsubscribeUrl: unsubscribeUrl(home, token) };
}
