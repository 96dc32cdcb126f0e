-- error() with nil
error()
