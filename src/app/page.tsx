export default function HomePage() {
  return (
    <main>
      <h1>Blog Manager</h1>
      <p>Manage your blogs over the REST API at <code>/api/v1</code>, authenticated by API keys.</p>
      <p>
        The API is described by its OpenAPI document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
      </p>
    </main>
  );
}
