-- a table as error object
error({ code = 1 })
