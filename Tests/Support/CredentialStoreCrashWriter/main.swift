print("crash writer placeholder")
