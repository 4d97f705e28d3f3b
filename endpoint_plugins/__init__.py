"""What runs at a site: the Secretary, its configuration, and the functions an endpoint serves."""
