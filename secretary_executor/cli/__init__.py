"""Command lines: ``resource-ask`` (the hub's flow) and ``secretary`` (site and schema tools)."""
