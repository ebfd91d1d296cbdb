//! WebMCP pages for end-to-end tests of browser checks, served by the test's own server.

/// A shop page whose WebMCP tool `set_stock` (input `{text}`) changes a big, visible
/// heading `#stock`, so screenshots before and after the call differ.
pub const STOCK_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stock</title>
<style>body{margin:0;font-family:sans-serif} #stock{font-size:96px;margin:40px;color:#999} #stock.set{color:#c00000;background:#ffe000}</style>
</head><body><h1 id="stock">In stock</h1>
<script>
  const stock = document.getElementById('stock');
  if (document.modelContext && typeof document.modelContext.registerTool === 'function') {
    document.modelContext.registerTool({
      name: 'set_stock',
      description: 'Sets the stock line.',
      inputSchema: {type: 'object', properties: {text: {type: 'string', minLength: 1}}, required: ['text']},
      async execute({ text }) { stock.textContent = text; stock.className = 'set'; return JSON.stringify({stock: text}); },
    });
  }
</script></body></html>"#;
