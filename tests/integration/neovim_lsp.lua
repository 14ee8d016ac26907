-- Driven by test_server_neovim.py: Neovim's own LSP client against `siblint server`, started by
-- the README's Neovim snippet (SIBLINT_SETUP, loaded here as a user's init.lua loads it).
-- SIBLINT_OUT is where the result goes; the file to check is nvim's first argument. Writes
-- {pulled, diagnostics, titles, applied, cleared, lines} or {error} and quits.
local out = os.getenv("SIBLINT_OUT")
dofile(os.getenv("SIBLINT_SETUP"))

local function finish(result)
  local fh = assert(io.open(out, "w"))
  fh:write(vim.json.encode(result))
  fh:close()
  vim.cmd("qall!")
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local client
  vim.wait(30000, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = "siblint" })[1]
    return client ~= nil and client.initialized
  end, 50)
  assert(client, "the README's snippet started no siblint client for " .. vim.bo[buf].filetype)
  -- Pull diagnostics first: the answer waits for the lint, so a clean file is known to be clean.
  local uri = vim.uri_from_bufnr(buf)
  local pulled = client:request_sync("textDocument/diagnostic", { textDocument = { uri = uri } }, 60000, buf)
  assert(pulled and not pulled.err, "textDocument/diagnostic failed: " .. vim.inspect(pulled))
  local pulled_codes = {}
  for _, d in ipairs(pulled.result.items) do table.insert(pulled_codes, d.code) end
  if #pulled_codes > 0 then
    local ok = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
    assert(ok, "no diagnostics published within 60 s")
  end

  local diagnostics, lsp_diagnostics = {}, {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(diagnostics, { code = d.code, lnum = d.lnum, source = d.source })
    table.insert(lsp_diagnostics, d.user_data.lsp)
  end

  local titles, applied = {}, nil
  if #lsp_diagnostics == 0 then  -- ask for the whole file's actions: a clean file has none
    table.insert(lsp_diagnostics, { range = { start = { line = 0, character = 0 },
                                              ["end"] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } } })
  end
  for _, lsp in ipairs(lsp_diagnostics) do
    local params = {
      textDocument = { uri = uri },
      range = lsp.range,
      context = { diagnostics = lsp.code and { lsp } or {} },
    }
    local answer = client:request_sync("textDocument/codeAction", params, 30000, buf)
    assert(answer and not answer.err, "codeAction failed: " .. vim.inspect(answer))
    for _, action in ipairs(answer.result or {}) do
      table.insert(titles, action.title)
      if applied == nil and action.title:find("^Fix SIB201") then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        applied = action.title
      end
    end
  end
  -- The edit goes through didChange: wait for the server to lint the new text.
  local cleared = vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == "SIB201" then return false end
    end
    return true
  end, 50)
  finish({
    pulled = pulled_codes,
    diagnostics = diagnostics,
    titles = titles,
    applied = applied,
    cleared = cleared,
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
  })
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok, err = pcall(run)
    if not ok then finish({ error = tostring(err) }) end
  end,
})
