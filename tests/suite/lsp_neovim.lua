-- Drives `deckbox lsp` through Neovim's built-in client (tests/suite/lsp_neovim.rs): open a
-- broken list, wait for the diagnostics, apply a quick fix, complete a name, hover, format,
-- write. Each step writes a line to $LOG; any failure quits with an error code. The server
-- is started by the init file, docs/editors.md's Neovim block, run as is.
-- Written for Neovim 0.7 (Debian 12's) and later: `request_sync`, `buf_get_clients`.
local log = assert(io.open(os.getenv('LOG'), 'w'))
local function say(text)
  log:write(text .. '\n')
  log:flush()
end
local function fail(text)
  say('FAIL ' .. text)
  log:close()
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  local deck = os.getenv('DECK')
  vim.cmd('edit ' .. vim.fn.fnameescape(deck))
  local buf = vim.api.nvim_get_current_buf()
  -- The client the init file (docs/editors.md's Neovim block) started for the file type.
  if vim.bo[buf].filetype ~= 'decklist' then return fail('file type ' .. vim.bo[buf].filetype) end
  local client
  vim.wait(30000, function()
    client = select(2, next(vim.lsp.buf_get_clients(buf)))
    return client ~= nil and client.initialized
  end, 50)
  if not client then return fail('no client attached') end

  -- Diagnostics.
  local seen = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  if not seen then return fail('no diagnostics') end
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(codes, tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)))
  end
  table.sort(codes)
  say('diagnostics ' .. table.concat(codes, ','))

  -- The quick fix of the unknown card on line 4 (0-based 3).
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 3, character = 3 }, ['end'] = { line = 3, character = 3 } },
    context = { diagnostics = {}, only = { 'quickfix' } },
  }
  local answer = client.request_sync('textDocument/codeAction', params, 30000, buf)
  if not answer or answer.err or not answer.result or not answer.result[1] then
    return fail('no code action')
  end
  local action = answer.result[1]
  say('fix ' .. action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')

  -- Completion of a name typed on a new last line.
  local last = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, last, last, false, { '4 Dragap' })
  local position = { line = last, character = 8 }
  answer = client.request_sync('textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = position,
  }, 30000, buf)
  if not answer or answer.err or not answer.result then return fail('no completion') end
  local item = (answer.result.items or answer.result)[1]
  if not item then return fail('no completion item') end
  say('complete ' .. item.label)
  vim.lsp.util.apply_text_edits({ item.textEdit }, buf, 'utf-16')

  -- Hover on the first card line.
  answer = client.request_sync('textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 1, character = 4 },
  }, 30000, buf)
  if not answer or answer.err or not answer.result then return fail('no hover') end
  local first = vim.split(answer.result.contents.value, '\n')[1]
  say('hover ' .. first)

  -- Formatting, as `deckbox fmt` writes it.
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ timeout_ms = 30000, bufnr = buf })
  else
    vim.lsp.buf.formatting_sync(nil, 30000)
  end
  vim.cmd('write')
  say('written')
end)
if not ok then return fail(tostring(err)) end
log:close()
vim.cmd('qall!')
