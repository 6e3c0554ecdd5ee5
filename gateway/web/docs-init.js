// Starts Swagger UI on the service's own OpenAPI document. A file, not an inline script, so the
// page's Content-Security-Policy can forbid inline scripts.
window.addEventListener('load', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    filter: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
  });
});
